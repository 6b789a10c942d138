import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import type { LoginInput, Session, TwoFactorChallenge } from "@zapdesk/core";
import { type ChangeEvent, type FormEvent, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { lazyNamed } from "../../../components/ui/on-demand";
import { ValidatedTextField } from "../../../components/ui/validated-text-field";
import { useAuth } from "../../../lib/auth";
import { toastError } from "../../../lib/error-handler";
import { usePublicSetting } from "../../../lib/queries/use-public-settings";
import { toast } from "../../../lib/toast";
import { AuthCard } from "../components/auth-card";
import type { LoginField } from "./login-check";

const loadCheck = () => import("./login-check").then((module) => module.checkLogin);
const FIELDS: LoginField[] = ["email", "password"];
/** Issue 22 §5: the second step (and its QR code) is fetched only when an account needs it. */
const LoginTwoFactor = lazyNamed(() => import("../../two-factor"), "LoginTwoFactor");

/**
 * Validated with core's schema as before, but without a form library: the check (zod) is fetched
 * after the screen paints, or at the first submit, whichever comes first. As with react-hook-form's
 * defaults, fields are checked on submit, then again on every change once a submit was tried.
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const { login, completeLogin } = useAuth();
  const { value: userCreation } = usePublicSetting("userCreation");
  const [values, setValues] = useState<LoginInput>({ email: "", password: "" });
  const [errors, setErrors] = useState<Partial<Record<LoginField, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  /** Issue 22 §5: the password was right and a second step is due. */
  const [challenge, setChallenge] = useState<TwoFactorChallenge>();
  const tried = useRef(false);
  const inputs = useRef<Partial<Record<LoginField, HTMLInputElement | null>>>({});
  useEffect(() => {
    loadCheck();
  }, []);
  /** Keeps a field's input, to focus the first invalid one after a submit. */
  const inputRef = (field: LoginField) => (input: HTMLInputElement | null) => {
    inputs.current[field] = input;
  };

  const onChange = (field: LoginField) => async (event: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (!tried.current) return;
    const check = (await loadCheck())(next);
    setErrors((current) => ({ ...current, [field]: check.errors?.[field] }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    tried.current = true;
    setSubmitting(true);
    try {
      const check = (await loadCheck())(values);
      setErrors(check.errors ?? {});
      if (!check.values) {
        const first = FIELDS.find((field) => check.errors[field]);
        if (first) inputs.current[first]?.focus();
        return;
      }
      const due = await login(check.values);
      if (due) {
        setChallenge(due);
        return;
      }
      toast.success(t("auth.toasts.success"));
    } catch (error) {
      toastError(error);
    } finally {
      setSubmitting(false);
    }
  };

  if (challenge) {
    const done = (session: Session) => {
      completeLogin(session);
      toast.success(t("auth.toasts.success"));
    };
    return (
      <AuthCard title={t(challenge.twoFactor === "enrol" ? "twoFactor.enrolTitle" : "twoFactor.loginTitle")}>
        <Suspense fallback={null}>
          <LoginTwoFactor
            challenge={challenge}
            onSession={done}
            onCancel={() => {
              setChallenge(undefined);
              setValues((current) => ({ ...current, password: "" }));
            }}
          />
        </Suspense>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t("login.title")}>
      <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} sx={{ mt: 2 }}>
        <ValidatedTextField
          name="email"
          value={values.email}
          onChange={onChange("email")}
          inputRef={inputRef("email")}
          errorMessage={errors.email}
          label={t("login.form.email")}
          autoComplete="email"
          autoFocus
          fullWidth
        />
        <ValidatedTextField
          name="password"
          value={values.password}
          onChange={onChange("password")}
          inputRef={inputRef("password")}
          errorMessage={errors.password}
          label={t("login.form.password")}
          autoComplete="current-password"
          password
          fullWidth
        />
        <Button type="submit" variant="contained" fullWidth disabled={submitting}>
          {t("login.buttons.submit")}
        </Button>
        {userCreation === "enabled" && (
          <Link component={RouterLink} to="/signup" variant="body2" sx={{ alignSelf: "flex-end" }}>
            {t("login.buttons.register")}
          </Link>
        )}
      </Stack>
    </AuthCard>
  );
}
