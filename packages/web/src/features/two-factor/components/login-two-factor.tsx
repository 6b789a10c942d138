import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Session, TwoFactorChallenge, TwoFactorEnrolment } from "@zapdesk/core";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { confirmLoginEnrolment, startLoginEnrolment, verifyLogin } from "../api/two-factor";
import { CodeField } from "./code-field";
import { EnrolmentPanel } from "./enrolment-panel";
import { errorText } from "./error-text";
import { RecoveryCodesPanel } from "./recovery-codes-panel";

interface LoginTwoFactorProps {
  challenge: TwoFactorChallenge;
  /** The sign-in is complete. */
  onSession(session: Session): void;
  /** Back to email and password (the challenge expired, or another account). */
  onCancel(): void;
}

/**
 * Issue 22 §5: the login page's second step. `verify`: a code from the app or a recovery code.
 * `enrol`: the account must set up two-factor sign-in before it gets any token; the recovery
 * codes are shown once, then the session starts.
 */
export function LoginTwoFactor(props: LoginTwoFactorProps) {
  return props.challenge.twoFactor === "enrol" ? <LoginEnrolment {...props} /> : <LoginCode {...props} />;
}

function LoginCode({ challenge, onSession, onCancel }: LoginTwoFactorProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    try {
      onSession(await verifyLogin(challenge.challenge, code));
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setPending(false);
    }
  };
  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2} sx={{ mt: 2 }} aria-label={t("twoFactor.loginTitle")}>
      <Typography variant="body2">{t("twoFactor.loginIntro")}</Typography>
      <CodeField value={code} onChange={setCode} error={error} allowRecovery autoFocus />
      <Button type="submit" variant="contained" fullWidth disabled={pending || !code.trim()}>
        {t("twoFactor.verify")}
      </Button>
      <Link component="button" type="button" variant="body2" onClick={onCancel} sx={{ alignSelf: "flex-end" }}>
        {t("twoFactor.back")}
      </Link>
    </Stack>
  );
}

function LoginEnrolment({ challenge, onSession, onCancel }: LoginTwoFactorProps) {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment>();
  const [done, setDone] = useState<Session & { recoveryCodes: string[] }>();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  useEffect(() => {
    let live = true;
    startLoginEnrolment(challenge.challenge)
      .then((started) => live && setEnrolment(started))
      .catch((failure) => live && setError(errorText(failure)));
    return () => {
      live = false;
    };
  }, [challenge.challenge]);

  const confirm = async (code: string) => {
    setPending(true);
    try {
      setDone(await confirmLoginEnrolment(challenge.challenge, code));
      setError(undefined);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setPending(false);
    }
  };

  if (done) {
    return (
      <Stack spacing={2} sx={{ mt: 2 }}>
        <Typography variant="h6" component="h2">
          {t("twoFactor.recoveryTitle")}
        </Typography>
        <RecoveryCodesPanel codes={done.recoveryCodes} onDone={() => onSession({ token: done.token, user: done.user })} />
      </Stack>
    );
  }
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <Alert severity="info">{t("twoFactor.requiredAtLogin")}</Alert>
      {enrolment ? (
        <EnrolmentPanel enrolment={enrolment} onConfirm={confirm} pending={pending} error={error} />
      ) : (
        error && <Alert severity="error">{error}</Alert>
      )}
      <Link component="button" type="button" variant="body2" onClick={onCancel} sx={{ alignSelf: "flex-end" }}>
        {t("twoFactor.back")}
      </Link>
    </Stack>
  );
}
