import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { TwoFactorEnrolment } from "@zapdesk/core";
import { QRCodeSVG } from "qrcode.react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { CopyField } from "../../../components/ui/copy-field";
import { CodeField } from "./code-field";

interface EnrolmentPanelProps {
  enrolment: TwoFactorEnrolment;
  onConfirm(code: string): void;
  pending: boolean;
  error?: string;
}

/** Scan the QR code (or type the secret) in an authenticator app, then confirm with its first code. */
export function EnrolmentPanel({ enrolment, onConfirm, pending, error }: EnrolmentPanelProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onConfirm(code);
  };
  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2} aria-label={t("twoFactor.enrolTitle")}>
      <Typography variant="body2">{t("twoFactor.scan")}</Typography>
      <Stack sx={{ alignItems: "center" }}>
        <QRCodeSVG
          value={enrolment.otpauthUri}
          size={200}
          title={t("twoFactor.qrLabel")}
          role="img"
          aria-label={t("twoFactor.qrLabel")}
        />
      </Stack>
      <CopyField
        id="two-factor-secret"
        label={t("twoFactor.secret")}
        value={enrolment.secret}
        helperText={t("twoFactor.secretHelp")}
      />
      <Typography variant="body2">{t("twoFactor.enterFirstCode")}</Typography>
      <CodeField value={code} onChange={setCode} error={error} />
      <Button type="submit" variant="contained" disabled={pending || !code.trim()}>
        {t("twoFactor.confirm")}
      </Button>
    </Stack>
  );
}
