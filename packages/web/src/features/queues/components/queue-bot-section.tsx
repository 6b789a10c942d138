import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type BotConfig, type BotConfigInput, can, DEFAULT_HANDOVER_WORDS } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { toastError } from "../../../lib/error-handler";
import { toast } from "../../../lib/toast";

type Kind = "none" | "typebot" | "webhook";
const botKey = (queueId: number) => ["queues", queueId, "bot"] as const;

/** "field=variable" lines ↔ pairs. */
const toLines = (pairs: { field: string; variable: string }[]) => pairs.map((p) => `${p.field}=${p.variable}`).join("\n");
const toPairs = (text: string) =>
  text
    .split("\n")
    .map((line) => line.split("="))
    .filter((parts) => parts.length === 2 && parts[0].trim() && parts[1].trim())
    .map(([field, variable]) => ({ field: field.trim(), variable: variable.trim() }));

/**
 * Issue 23 §4: the queue's bot, in the queue form (whoever manages queues). Its own resource with
 * its own Save: Typebot (URL, public id, API token never shown back) or a webhook bot (its signing
 * secret shown once), contact fields in and out, handover words and the idle timeout.
 */
export function QueueBotSection({ queueId }: { queueId: number }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const allowed = can(user, "queues:manage");
  const client = useQueryClient();
  const { data, isSuccess } = useQuery({
    queryKey: botKey(queueId),
    queryFn: () => api.get<BotConfig | null>(`/queue/${queueId}/bot`),
    enabled: allowed,
  });
  const [kind, setKind] = useState<Kind>("none");
  const [baseUrl, setBaseUrl] = useState("");
  const [publicId, setPublicId] = useState("");
  const [apiToken, setApiToken] = useState("");
  const [webhookUrl, setWebhookUrl] = useState("");
  const [variablesIn, setVariablesIn] = useState("");
  const [variablesOut, setVariablesOut] = useState("");
  const [words, setWords] = useState(DEFAULT_HANDOVER_WORDS.join(", "));
  const [timeout, setTimeoutMinutes] = useState("30");
  const [secret, setSecret] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!isSuccess) return;
    setKind(data?.kind ?? "none");
    setBaseUrl(data?.baseUrl ?? "");
    setPublicId(data?.publicId ?? "");
    setApiToken("");
    setWebhookUrl(data?.webhookUrl ?? "");
    setVariablesIn(toLines(data?.variablesIn ?? []));
    setVariablesOut(toLines(data?.variablesOut ?? []));
    setWords((data?.handoverWords ?? DEFAULT_HANDOVER_WORDS).join(", "));
    setTimeoutMinutes(String(data?.timeoutMinutes ?? 30));
  }, [data, isSuccess]);

  if (!allowed) return null;

  const save = async () => {
    setBusy(true);
    try {
      if (kind === "none") {
        if (data) await api.delete(`/queue/${queueId}/bot`);
      } else {
        const common = {
          variablesIn: toPairs(variablesIn),
          variablesOut: toPairs(variablesOut),
          handoverWords: words
            .split(",")
            .map((w) => w.trim())
            .filter(Boolean),
          timeoutMinutes: Number(timeout) || 30,
        };
        const input: BotConfigInput =
          kind === "typebot"
            ? { kind, baseUrl, publicId, ...(apiToken ? { apiToken } : {}), ...common }
            : { kind, webhookUrl, ...common };
        const saved = await api.put<BotConfig>(`/queue/${queueId}/bot`, input);
        setSecret(saved.secret);
      }
      await client.invalidateQueries({ queryKey: botKey(queueId) });
      toast.success(t("bots.saved"));
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={1.5} component="section" aria-labelledby={`queue-bot-${queueId}`}>
      <Typography id={`queue-bot-${queueId}`} variant="subtitle2">
        {t("bots.title")}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t("bots.intro")}
      </Typography>
      <TextField select label={t("bots.kind")} value={kind} onChange={(e) => setKind(e.target.value as Kind)} fullWidth>
        {(["none", "typebot", "webhook"] as const).map((k) => (
          <MenuItem key={k} value={k}>
            {t(`bots.kinds.${k}`)}
          </MenuItem>
        ))}
      </TextField>
      {kind === "typebot" && (
        <>
          <TextField label={t("bots.baseUrl")} value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} fullWidth />
          <TextField label={t("bots.publicId")} value={publicId} onChange={(e) => setPublicId(e.target.value)} fullWidth />
          <TextField
            label={t("bots.apiToken")}
            type="password"
            value={apiToken}
            onChange={(e) => setApiToken(e.target.value)}
            helperText={data?.apiToken === "set" ? t("bots.apiTokenSet") : t("bots.apiTokenNotSet")}
            autoComplete="off"
            fullWidth
          />
        </>
      )}
      {kind === "webhook" && (
        <TextField label={t("bots.webhookUrl")} value={webhookUrl} onChange={(e) => setWebhookUrl(e.target.value)} fullWidth />
      )}
      {secret && (
        <Alert severity="warning">
          {t("bots.secretOnce")} <code>{secret}</code>
        </Alert>
      )}
      {kind !== "none" && (
        <>
          <TextField
            label={t("bots.variablesIn")}
            helperText={t("bots.variablesHint")}
            value={variablesIn}
            onChange={(e) => setVariablesIn(e.target.value)}
            multiline
            minRows={2}
            fullWidth
          />
          <TextField
            label={t("bots.variablesOut")}
            helperText={t("bots.variablesHint")}
            value={variablesOut}
            onChange={(e) => setVariablesOut(e.target.value)}
            multiline
            minRows={2}
            fullWidth
          />
          <TextField label={t("bots.words")} value={words} onChange={(e) => setWords(e.target.value)} fullWidth />
          <TextField
            label={t("bots.timeout")}
            type="number"
            value={timeout}
            onChange={(e) => setTimeoutMinutes(e.target.value)}
            fullWidth
          />
        </>
      )}
      <Button variant="outlined" onClick={save} disabled={busy} sx={{ alignSelf: "flex-start" }}>
        {t("bots.save")}
      </Button>
    </Stack>
  );
}
