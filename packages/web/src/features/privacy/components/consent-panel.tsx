import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { DEFAULT_ACCEPT_WORDS, DEFAULT_DECLINE_WORDS } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useConnections } from "../../../lib/queries/use-connections";
import { useQueues } from "../../../lib/queries/use-queues";
import { toast } from "../../../lib/toast";
import { useConsentSettings, useDeleteConsentConfig, useSaveConsentConfig, useSaveOptOutWords } from "../api/consent";

/** Words typed as one comma-separated line. */
const wordsOf = (line: string) =>
  line
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);

/** The message's own placeholders, kept as they are by the translation. */
const PLACEHOLDERS = { name: "{{name}}", link: "{{link}}", interpolation: { escapeValue: false } };

/** Issue 22 §3: the install-wide opt-out words, and the consent message of each connection or queue. */
export function ConsentPanel() {
  const { t } = useTranslation();
  const { data } = useConsentSettings();
  const { data: connections = [] } = useConnections();
  const { data: queues = [] } = useQueues();
  const saveWords = useSaveOptOutWords();
  const saveConfig = useSaveConsentConfig();
  const remove = useDeleteConsentConfig();
  const [optOut, setOptOut] = useState("");
  const [scope, setScope] = useState("");
  const [enabled, setEnabled] = useState(true);
  const [message, setMessage] = useState("");
  const [privacyUrl, setPrivacyUrl] = useState("");
  const [accept, setAccept] = useState("");
  const [decline, setDecline] = useState("");
  const [kind, id] = scope.split(":");
  const whatsappId = kind === "w" ? Number(id) : null;
  const queueId = kind === "q" ? Number(id) : null;
  const saved = data?.configs.find((c) =>
    whatsappId !== null ? c.whatsappId === whatsappId : c.queueId === queueId && queueId !== null,
  );

  useEffect(() => {
    if (data) setOptOut(data.optOutWords.join(", "));
  }, [data]);
  useEffect(() => {
    setEnabled(saved?.enabled ?? true);
    setMessage(saved?.message ?? t("consent.admin.defaultMessage", PLACEHOLDERS));
    setPrivacyUrl(saved?.privacyUrl ?? "");
    setAccept((saved?.acceptWords ?? DEFAULT_ACCEPT_WORDS).join(", "));
    setDecline((saved?.declineWords ?? DEFAULT_DECLINE_WORDS).join(", "));
  }, [saved, t]);

  const done = { onSuccess: () => toast.success(t("consent.admin.saved"), "consent") };
  const fields = { enabled, message, privacyUrl, acceptWords: wordsOf(accept), declineWords: wordsOf(decline) };
  const onSave = () => saveConfig.mutate({ id: saved?.id, create: { ...fields, whatsappId, queueId }, update: fields }, done);

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="consent-title">
      <Typography id="consent-title" variant="h6" gutterBottom>
        {t("consent.admin.title")}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("consent.admin.optOutIntro")}
      </Typography>
      <Stack direction="row" sx={{ gap: 2, alignItems: "center", mb: 3, flexWrap: "wrap" }}>
        <TextField
          size="small"
          label={t("consent.admin.optOutWords")}
          value={optOut}
          onChange={(e) => setOptOut(e.target.value)}
          sx={{ minWidth: 280, flex: 1 }}
        />
        <Button
          variant="outlined"
          disabled={saveWords.isPending || wordsOf(optOut).length === 0}
          onClick={() => saveWords.mutate(wordsOf(optOut), done)}
        >
          {t("consent.admin.save")}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("consent.admin.messageIntro")}
      </Typography>
      <TextField
        select
        size="small"
        label={t("consent.admin.scope")}
        value={scope}
        onChange={(e) => setScope(e.target.value)}
        sx={{ minWidth: 260, mb: 2 }}
      >
        {connections.map((c) => (
          <MenuItem key={`w${c.id}`} value={`w:${c.id}`}>
            {t("consent.admin.connection", { name: c.name })}
          </MenuItem>
        ))}
        {queues.map((q) => (
          <MenuItem key={`q${q.id}`} value={`q:${q.id}`}>
            {t("consent.admin.queue", { name: q.name })}
          </MenuItem>
        ))}
      </TextField>
      {scope && (
        <Stack sx={{ gap: 2 }}>
          <FormControlLabel
            control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />}
            label={t("consent.admin.enabled")}
          />
          <TextField
            multiline
            minRows={3}
            label={t("consent.admin.message")}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            helperText={t("consent.admin.messageHelp", PLACEHOLDERS)}
          />
          <TextField
            label={t("consent.admin.privacyUrl")}
            value={privacyUrl}
            onChange={(e) => setPrivacyUrl(e.target.value)}
            placeholder="https://"
          />
          <TextField label={t("consent.admin.acceptWords")} value={accept} onChange={(e) => setAccept(e.target.value)} />
          <TextField label={t("consent.admin.declineWords")} value={decline} onChange={(e) => setDecline(e.target.value)} />
          <Stack direction="row" sx={{ gap: 1 }}>
            <Button variant="contained" disabled={saveConfig.isPending || !message.trim()} onClick={onSave}>
              {t("consent.admin.save")}
            </Button>
            {saved && (
              <Button color="error" disabled={remove.isPending} onClick={() => remove.mutate(saved.id, done)}>
                {t("consent.admin.delete")}
              </Button>
            )}
          </Stack>
        </Stack>
      )}
    </Paper>
  );
}
