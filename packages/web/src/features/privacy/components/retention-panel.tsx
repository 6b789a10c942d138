import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { RetentionCounts, RetentionPolicy, RetentionRemove } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDay, formatHourMinute } from "../../../lib/format-time";
import { useQueues } from "../../../lib/queries/use-queues";
import { toast } from "../../../lib/toast";
import { usePreviewPolicy, useResetPolicy, useRetention, useRunRetention, useSavePolicy } from "../api/retention";

/** The default scope's modes, and a queue's: follow the default, keep forever, or its own policy. */
type Mode = "off" | "on" | "default" | "forever" | "custom";
const DEFAULT_SCOPE = "default";
const when = (iso: string) => `${formatDay(new Date(iso))} ${formatHourMinute(new Date(iso))}`;

/** Issue 22 §1: retention policies (default and per queue), a preview before saving, and the sweep. */
export function RetentionPanel() {
  const { t } = useTranslation();
  const { data } = useRetention();
  const { data: queues = [] } = useQueues();
  const save = useSavePolicy();
  const reset = useResetPolicy();
  const preview = usePreviewPolicy();
  const run = useRunRetention();
  const [scope, setScope] = useState(DEFAULT_SCOPE);
  const [mode, setMode] = useState<Mode>("off");
  const [days, setDays] = useState("365");
  const [remove, setRemove] = useState<RetentionRemove>("media");
  const queueId = scope === DEFAULT_SCOPE ? null : Number(scope);
  const saved = data?.policies.find((p) => p.queueId === queueId);

  // Show the chosen scope's saved policy; a new choice clears the last preview.
  useEffect(() => {
    setMode(
      saved
        ? saved.enabled
          ? saved.queueId === null
            ? "on"
            : "custom"
          : queueId === null
            ? "off"
            : "forever"
        : queueId === null
          ? "off"
          : "default",
    );
    setDays(String(saved?.days ?? 365));
    setRemove(saved?.remove ?? "media");
    preview.reset();
  }, [saved, queueId, preview.reset]);

  const dayCount = Number(days);
  const daysValid = Number.isInteger(dayCount) && dayCount >= 1 && dayCount <= 3650;
  const removes = mode === "on" || mode === "custom";
  const policy: RetentionPolicy = { queueId, enabled: removes, days: daysValid ? dayCount : 1, remove };
  // Contacts are named when some were anonymised, or when the policy previewed anonymises.
  const counts = (c: RetentionCounts, withContacts = c.contacts > 0) => {
    const removed = t("retention.counts", { tickets: c.tickets, messages: c.messages, files: c.files });
    return withContacts ? t("retention.countsWithContacts", { counts: removed, contacts: c.contacts ?? 0 }) : removed;
  };
  const describe = (p: RetentionPolicy) =>
    p.enabled
      ? t(`retention.describe.${p.remove}`, { count: p.days })
      : t(p.queueId === null ? "retention.describe.off" : "retention.describe.forever");
  const queueName = (id: number | null) =>
    id === null ? t("retention.defaultScope") : (queues.find((q) => q.id === id)?.name ?? `#${id}`);

  const onSave = () => {
    const done = { onSuccess: () => toast.success(t("retention.saved"), "retention") };
    if (mode === "default" && queueId !== null) reset.mutate(queueId, done);
    else save.mutate(policy, done);
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="retention-title">
      <Typography id="retention-title" variant="h6" gutterBottom>
        {t("retention.title")}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("retention.intro")}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: "wrap", gap: 2, alignItems: "center", mb: 2 }}>
        <TextField
          select
          size="small"
          label={t("retention.scope")}
          value={scope}
          onChange={(e) => setScope(e.target.value)}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value={DEFAULT_SCOPE}>{t("retention.defaultScope")}</MenuItem>
          {queues.map((q) => (
            <MenuItem key={q.id} value={String(q.id)}>
              {q.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t("retention.mode")}
          value={mode}
          onChange={(e) => setMode(e.target.value as Mode)}
          sx={{ minWidth: 220 }}
        >
          {(queueId === null ? (["off", "on"] as const) : (["default", "forever", "custom"] as const)).map((m) => (
            <MenuItem key={m} value={m}>
              {t(`retention.modes.${m}`)}
            </MenuItem>
          ))}
        </TextField>
        {removes && (
          <>
            <TextField
              size="small"
              type="number"
              label={t("retention.days")}
              value={days}
              onChange={(e) => setDays(e.target.value)}
              error={!daysValid}
              helperText={daysValid ? " " : t("retention.daysRange")}
              slotProps={{ htmlInput: { min: 1, max: 3650 } }}
              sx={{ width: 180 }}
            />
            <TextField
              select
              size="small"
              label={t("retention.remove")}
              value={remove}
              onChange={(e) => setRemove(e.target.value as RetentionRemove)}
              sx={{ minWidth: 240 }}
            >
              <MenuItem value="media">{t("retention.removeOptions.media")}</MenuItem>
              <MenuItem value="messages">{t("retention.removeOptions.messages")}</MenuItem>
              <MenuItem value="anonymise">{t("retention.removeOptions.anonymise")}</MenuItem>
            </TextField>
          </>
        )}
      </Stack>
      {removes && remove === "anonymise" && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t("retention.anonymiseHelp")}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: "center", flexWrap: "wrap" }}>
        <Button variant="outlined" disabled={!removes || !daysValid || preview.isPending} onClick={() => preview.mutate(policy)}>
          {t("retention.preview")}
        </Button>
        <Button variant="contained" disabled={(removes && !daysValid) || save.isPending || reset.isPending} onClick={onSave}>
          {t("retention.save")}
        </Button>
      </Stack>
      {preview.data && (
        <Typography variant="body2" role="status" sx={{ mb: 2 }}>
          {t("retention.previewResult", { counts: counts(preview.data, remove === "anonymise") })}
        </Typography>
      )}
      <Typography variant="subtitle2">{t("retention.current")}</Typography>
      {data && data.policies.length === 0 ? (
        <Typography color="text.secondary">{t("retention.none")}</Typography>
      ) : (
        <List dense aria-label={t("retention.current")}>
          {data?.policies.map((p) => (
            <ListItem key={p.queueId ?? 0} disableGutters>
              <ListItemText primary={queueName(p.queueId)} secondary={describe(p)} />
            </ListItem>
          ))}
        </List>
      )}
      <Stack direction="row" spacing={2} sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <Typography variant="body2" role="status">
          {data?.lastRun
            ? t("retention.lastRun", { when: when(data.lastRun.at), counts: counts(data.lastRun) })
            : t("retention.neverRan")}
        </Typography>
        <Button
          variant="text"
          disabled={run.isPending}
          onClick={() =>
            run.mutate(undefined, { onSuccess: (c) => toast.success(t("retention.ran", { counts: counts(c) }), "retention-run") })
          }
        >
          {t("retention.runNow")}
        </Button>
      </Stack>
    </Paper>
  );
}
