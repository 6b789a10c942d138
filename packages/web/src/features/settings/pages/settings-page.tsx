import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { can, NEW_TICKET_DELAYS, type SettingKey, TWO_FACTOR_REQUIREMENTS } from "@zapdesk/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { PageContainer } from "../../../components/ui/page-container";
import { useAuth } from "../../../lib/auth";
import { toast } from "../../../lib/toast";
import { ConsentPanel, RetentionPanel } from "../../privacy";
import { useSettings } from "../api/get-settings";
import { useUpdateSetting } from "../api/update-setting";
import { ApiTokenField } from "../components/api-token-field";
import { BackupsPanel } from "../components/backups-panel";
import { SettingSelect } from "../components/setting-select";
import { SettingUrlField } from "../components/setting-url-field";

/** One setting: its title is the accessible name of the control beside it (`setting-<id>-label`). */
function Row({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
      <Typography id={`setting-${id}-label`} sx={{ flex: 1, minWidth: 220 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Spec §9 delays, shown in the largest whole unit. */
function delayLabel(seconds: number, t: (key: string, options?: Record<string, unknown>) => string) {
  if (seconds < 60) return t("settings.delays.seconds", { count: seconds });
  if (seconds < 3600) return t("settings.delays.minutes", { count: seconds / 60 });
  return t("settings.delays.hours", { count: seconds / 3600 });
}

export default function SettingsPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { data: settings = [] } = useSettings();
  const update = useUpdateSetting();
  const value = (key: SettingKey) => settings.find((s) => s.key === key)?.value ?? "";
  const save = (key: SettingKey, next: string) =>
    update.mutate({ key, value: next }, { onSuccess: () => toast.success(t("settings.success"), `setting-${key}`) });
  const enabledDisabled = [
    { value: "enabled", label: t("settings.settings.userCreation.options.enabled") },
    { value: "disabled", label: t("settings.settings.userCreation.options.disabled") },
  ];
  const token = value("userApiToken");

  return (
    <PageContainer title={t("settings.title")}>
      <Stack spacing={1.5} sx={{ p: 1 }}>
        <Row id="userCreation" title={t("settings.settings.userCreation.name")}>
          <SettingSelect
            labelledBy="setting-userCreation-label"
            value={value("userCreation")}
            options={enabledDisabled}
            onChange={(v) => save("userCreation", v)}
          />
        </Row>
        <Row id="timeCreateNewTicket" title={t("settings.settings.timeCreateNewTicket.name")}>
          <SettingSelect
            labelledBy="setting-timeCreateNewTicket-label"
            value={value("timeCreateNewTicket")}
            options={NEW_TICKET_DELAYS.map((s) => ({ value: String(s), label: delayLabel(s, t) }))}
            onChange={(v) => save("timeCreateNewTicket", v)}
          />
        </Row>
        <Row id="call" title={t("settings.settings.call.name")}>
          <SettingSelect
            labelledBy="setting-call-label"
            value={value("call")}
            options={enabledDisabled}
            onChange={(v) => save("call", v)}
          />
        </Row>
        <Row id="CheckMsgIsGroup" title={t("settings.settings.CheckMsgIsGroup.name")}>
          <SettingSelect
            labelledBy="setting-CheckMsgIsGroup-label"
            value={value("CheckMsgIsGroup")}
            options={enabledDisabled}
            onChange={(v) => save("CheckMsgIsGroup", v)}
          />
        </Row>
        <Row id="webhookAllowPrivate" title={t("settings.settings.webhookAllowPrivate.name")}>
          <SettingSelect
            labelledBy="setting-webhookAllowPrivate-label"
            value={value("webhookAllowPrivate")}
            options={enabledDisabled}
            onChange={(v) => save("webhookAllowPrivate", v)}
          />
        </Row>
        <Row id="showChoosingQueue" title={t("routing.settings.showChoosingQueue")}>
          <SettingSelect
            labelledBy="setting-showChoosingQueue-label"
            value={value("showChoosingQueue")}
            options={enabledDisabled}
            onChange={(v) => save("showChoosingQueue", v)}
          />
        </Row>
        {/* Issue 23 §5: the first agent who resolves an unowned contact's ticket becomes its owner. */}
        <Row id="ownerOnResolve" title={t("contactOwner.settings.ownerOnResolve")}>
          <SettingSelect
            labelledBy="setting-ownerOnResolve-label"
            value={value("ownerOnResolve")}
            options={enabledDisabled}
            onChange={(v) => save("ownerOnResolve", v)}
          />
        </Row>
        <Row id="protocolWebhookAllowPrivate" title={t("settings.settings.protocolWebhookAllowPrivate.name")}>
          <SettingSelect
            labelledBy="setting-protocolWebhookAllowPrivate-label"
            value={value("protocolWebhookAllowPrivate")}
            options={enabledDisabled}
            onChange={(v) => save("protocolWebhookAllowPrivate", v)}
          />
        </Row>
        <Row id="twoFactorRequired" title={t("settings.settings.twoFactorRequired.name")}>
          <SettingSelect
            labelledBy="setting-twoFactorRequired-label"
            value={value("twoFactorRequired")}
            options={TWO_FACTOR_REQUIREMENTS.map((v) => ({
              value: v,
              label: t(`settings.settings.twoFactorRequired.options.${v}`),
            }))}
            onChange={(v) => save("twoFactorRequired", v)}
          />
        </Row>
        {(["protocolWebhookUrl", "salesPageUrl", "communityPageUrl"] as const).map((key) => (
          <Row key={key} id={key} title={t(`settings.settings.${key}.name`)}>
            <SettingUrlField
              settingKey={key}
              labelledBy={`setting-${key}-label`}
              label={t(`settings.settings.${key}.name`)}
              value={value(key)}
              onSave={(v) => save(key, v)}
            />
          </Row>
        ))}
        <Row id="userApiToken" title={t("settings.settings.userApiToken.name")}>
          <ApiTokenField token={token} labelledBy="setting-userApiToken-label" />
        </Row>
        {can(user, "backups:manage") && <BackupsPanel />}
        {can(user, "retention:manage") && <RetentionPanel />}
        {can(user, "consent:manage") && <ConsentPanel />}
      </Stack>
    </PageContainer>
  );
}
