import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import {
  useConfirmEnrolment,
  useDisableTwoFactor,
  useRenewRecoveryCodes,
  useStartEnrolment,
  useTwoFactorStatus,
} from "../api/two-factor";
import { CodeForm } from "./code-form";
import { EnrolmentPanel } from "./enrolment-panel";
import { errorText } from "./error-text";
import { RecoveryCodesPanel } from "./recovery-codes-panel";

type Step = "status" | "enrol" | "renew" | "disable" | "codes";

/** Issue 22 §5: the user's own two-factor sign-in (from the user menu): turn on, new recovery codes, turn off. */
export function TwoFactorDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const { data: status, isLoading } = useTwoFactorStatus(open);
  const start = useStartEnrolment();
  const confirm = useConfirmEnrolment();
  const renew = useRenewRecoveryCodes();
  const disable = useDisableTwoFactor();
  const [step, setStep] = useState<Step>("status");
  const [codes, setCodes] = useState<string[]>([]);
  const back = () => {
    for (const mutation of [start, confirm, renew, disable]) mutation.reset();
    setStep("status");
  };
  const showCodes = ({ recoveryCodes }: { recoveryCodes: string[] }) => {
    setCodes(recoveryCodes);
    setStep("codes");
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="two-factor-title">
      <DialogTitle id="two-factor-title">{t("twoFactor.title")}</DialogTitle>
      <DialogContent dividers>
        {isLoading && <Typography>{t("twoFactor.loading")}</Typography>}
        {status && step === "status" && (
          <Stack spacing={2}>
            <Typography variant="body2" color="text.secondary">
              {t("twoFactor.intro")}
            </Typography>
            {status.required && <Alert severity="info">{t("twoFactor.requiredByAdmin")}</Alert>}
            {status.enabled ? (
              <>
                <Alert severity="success">
                  {t("twoFactor.onSince", { date: new Date(status.enabledAt ?? Date.now()).toLocaleString(i18n.language) })}{" "}
                  {t("twoFactor.codesLeft", { count: status.recoveryCodesLeft })}
                </Alert>
                <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap" }}>
                  <Button onClick={() => setStep("renew")}>{t("twoFactor.renew")}</Button>
                  {!status.required && (
                    <Button color="error" onClick={() => setStep("disable")}>
                      {t("twoFactor.disable")}
                    </Button>
                  )}
                </Stack>
              </>
            ) : (
              <>
                <Alert severity="warning">{t("twoFactor.off")}</Alert>
                <Button
                  variant="contained"
                  sx={{ alignSelf: "flex-start" }}
                  disabled={start.isPending}
                  onClick={() => start.mutate(undefined, { onSuccess: () => setStep("enrol") })}
                >
                  {t("twoFactor.enable")}
                </Button>
              </>
            )}
          </Stack>
        )}
        {step === "enrol" && start.data && (
          <EnrolmentPanel
            enrolment={start.data}
            pending={confirm.isPending}
            error={errorText(confirm.error)}
            onConfirm={(code) => confirm.mutate(code, { onSuccess: showCodes })}
          />
        )}
        {step === "renew" && (
          <CodeForm
            intro={t("twoFactor.renewIntro")}
            submitLabel={t("twoFactor.renew")}
            pending={renew.isPending}
            error={errorText(renew.error)}
            onSubmit={({ code }) => renew.mutate(code ?? "", { onSuccess: showCodes })}
            onCancel={back}
          />
        )}
        {step === "disable" && (
          <CodeForm
            intro={t("twoFactor.disableIntro")}
            submitLabel={t("twoFactor.disable")}
            pending={disable.isPending}
            error={errorText(disable.error)}
            allowPassword
            onSubmit={(input) =>
              disable.mutate(input, {
                onSuccess: () => {
                  toast.success(t("twoFactor.disabled"));
                  back();
                },
              })
            }
            onCancel={back}
          />
        )}
        {step === "codes" && (
          <RecoveryCodesPanel
            codes={codes}
            onDone={() => {
              setCodes([]);
              back();
            }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("twoFactor.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
