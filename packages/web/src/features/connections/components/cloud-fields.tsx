import Alert from "@mui/material/Alert";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { CloudConfig } from "@zapdesk/core";
import { type Control, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { CopyField } from "../../../components/ui/copy-field";
import { FormTextField } from "../../../components/ui/form-text-field";
import type { ConnectionForm } from "./connection-form";

export const META_GETTING_STARTED = "https://developers.facebook.com/docs/whatsapp/cloud-api/get-started";
const STEPS = ["app", "ids", "token", "secret", "webhook"] as const;

/** The server gives a path when it does not know its public origin: the browser's origin is the one Meta must reach. */
export const absoluteUrl = (url: string) => (url.startsWith("/") ? `${window.location.origin}${url}` : url);

function HowToConnect() {
  const { t } = useTranslation();
  return (
    <Alert severity="info" component="section" aria-labelledby="cloud-howto-title">
      <Typography id="cloud-howto-title" variant="subtitle2" component="h3">
        {t("whatsappModal.cloud.howTo.title")}
      </Typography>
      <Typography component="ol" variant="body2" sx={{ pl: 2.5, my: 0.5 }}>
        {STEPS.map((step) => (
          <li key={step}>{t(`whatsappModal.cloud.howTo.${step}`)}</li>
        ))}
      </Typography>
      <Link href={META_GETTING_STARTED} target="_blank" rel="noopener noreferrer" variant="body2">
        {t("whatsappModal.cloud.howTo.link")}
      </Link>
    </Alert>
  );
}

/** A secret field: once saved it is never shown again, and left blank it keeps the stored value. */
function SecretField(props: { control: Control<ConnectionForm>; name: "accessToken" | "appSecret"; isSet: boolean | undefined }) {
  const { t } = useTranslation();
  return (
    <FormTextField
      control={props.control}
      name={`cloud.${props.name}`}
      label={t(`whatsappModal.cloud.${props.name}`)}
      password
      autoComplete="off"
      placeholder={props.isSet ? "••••••••" : undefined}
      helperText={props.isSet ? t("whatsappModal.cloud.secretSet") : t(`whatsappModal.cloud.${props.name}Help`)}
      fullWidth
    />
  );
}

/** Official Cloud API settings: ids, secrets (never shown again once saved), the verify token and the webhook URL. */
export function CloudFields({ control, saved }: { control: Control<ConnectionForm>; saved: CloudConfig | null | undefined }) {
  const { t } = useTranslation();
  const verifyToken = useWatch({ control, name: "cloud.verifyToken" });
  return (
    <Stack spacing={2}>
      <HowToConnect />
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
        <FormTextField
          control={control}
          name="cloud.phoneNumberId"
          label={t("whatsappModal.cloud.phoneNumberId")}
          fullWidth
          slotProps={{ htmlInput: { inputMode: "numeric" } }}
        />
        <FormTextField
          control={control}
          name="cloud.businessAccountId"
          label={t("whatsappModal.cloud.businessAccountId")}
          fullWidth
          slotProps={{ htmlInput: { inputMode: "numeric" } }}
        />
      </Stack>
      <SecretField control={control} name="accessToken" isSet={saved?.accessTokenSet} />
      <SecretField control={control} name="appSecret" isSet={saved?.appSecretSet} />
      <CopyField
        id="cloud-verify-token"
        label={t("whatsappModal.cloud.verifyToken")}
        value={verifyToken}
        helperText={t("whatsappModal.cloud.verifyTokenHelp")}
      />
      {saved?.webhookUrl ? (
        <CopyField
          id="cloud-webhook-url"
          label={t("whatsappModal.cloud.webhookUrl")}
          value={absoluteUrl(saved.webhookUrl)}
          helperText={t("whatsappModal.cloud.webhookUrlHelp")}
        />
      ) : (
        <Alert severity="warning" variant="outlined">
          {t("whatsappModal.cloud.webhookAfterSave")}
        </Alert>
      )}
    </Stack>
  );
}
