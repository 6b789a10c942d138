import DownloadIcon from "@mui/icons-material/Download";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type BackupSchedule, DEFAULT_BACKUP_SCHEDULE } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { formatDay, formatHourMinute } from "../../../lib/format-time";
import { toast } from "../../../lib/toast";
import { useBackups, useCreateBackup, useDownloadBackup, useSaveBackupSchedule } from "../api/backups";
import { SettingSelect } from "./setting-select";

const KEEP = [3, 7, 14, 30, 90];
const when = (iso: string) => `${formatDay(new Date(iso))} ${formatHourMinute(new Date(iso))}`;
const megabytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

/** Backups: the daily schedule with retention, a backup now, and downloads (admins only). */
export function BackupsPanel() {
  const { t } = useTranslation();
  const { data } = useBackups();
  const save = useSaveBackupSchedule();
  const create = useCreateBackup();
  const download = useDownloadBackup();
  const schedule = data?.schedule ?? DEFAULT_BACKUP_SCHEDULE;
  const change = (next: Partial<BackupSchedule>) =>
    save.mutate({ ...schedule, ...next }, { onSuccess: () => toast.success(t("settings.success"), "backup-schedule") });
  const lastRun = data?.lastRun;

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="backups-title">
      <Typography id="backups-title" variant="h6" gutterBottom>
        {t("settings.backups.title")}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("settings.backups.intro")}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ flexWrap: "wrap", alignItems: "center", rowGap: 1, mb: 2 }}>
        <Typography id="backup-daily-label">{t("settings.backups.daily")}</Typography>
        <SettingSelect
          labelledBy="backup-daily-label"
          value={schedule.enabled ? "enabled" : "disabled"}
          options={[
            { value: "enabled", label: t("settings.settings.userCreation.options.enabled") },
            { value: "disabled", label: t("settings.settings.userCreation.options.disabled") },
          ]}
          onChange={(v) => change({ enabled: v === "enabled" })}
        />
        <Typography id="backup-hour-label">{t("settings.backups.hour")}</Typography>
        <SettingSelect
          labelledBy="backup-hour-label"
          value={String(schedule.hour)}
          options={Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, "0")}:00` }))}
          onChange={(v) => change({ hour: Number(v) })}
        />
        <Typography id="backup-keep-label">{t("settings.backups.keep")}</Typography>
        <SettingSelect
          labelledBy="backup-keep-label"
          value={String(schedule.keep)}
          options={KEEP.map((n) => ({ value: String(n), label: t("settings.backups.keepCount", { count: n }) }))}
          onChange={(v) => change({ keep: Number(v) })}
        />
      </Stack>
      {lastRun && (
        <Typography variant="body2" sx={{ mb: 2 }} role="status">
          {lastRun.ok
            ? t("settings.backups.lastRunOk", { when: when(lastRun.at) })
            : t("settings.backups.lastRunFailed", { when: when(lastRun.at), error: lastRun.error ?? "" })}
        </Typography>
      )}
      <Stack direction="row" spacing={1} sx={{ mb: 1 }}>
        <Button
          variant="contained"
          startIcon={download.isPending ? <CircularProgress size={16} /> : <DownloadIcon />}
          disabled={download.isPending}
          onClick={() => download.mutate(undefined)}
        >
          {t("settings.backups.downloadNow")}
        </Button>
        <Button variant="outlined" disabled={create.isPending} onClick={() => create.mutate()}>
          {t("settings.backups.createNow")}
        </Button>
      </Stack>
      {!data ? null : data.backups.length === 0 ? (
        <Typography color="text.secondary">{t("settings.backups.none")}</Typography>
      ) : (
        <List dense aria-label={t("settings.backups.list")}>
          {data.backups.map((backup) => (
            <ListItem
              key={backup.name}
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={t("settings.backups.download", { name: backup.name })}
                  onClick={() => download.mutate(backup.name)}
                >
                  <DownloadIcon />
                </IconButton>
              }
            >
              <ListItemText
                primary={backup.name}
                secondary={t("settings.backups.item", { when: when(backup.createdAt), size: megabytes(backup.size) })}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}
