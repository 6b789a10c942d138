import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import Switch from "@mui/material/Switch";
import type { NotificationPreferencesInput } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../lib/api-client";
import { toastError } from "../../../lib/error-handler";
import { toast } from "../../../lib/toast";
import { preferencesOrDefault, useNotificationPreferences, useSaveNotificationPreferences } from "../api/preferences";
import { notificationsSupported, playChime } from "../utils/alert";
import { currentSubscription, pushSupported, subscribePush, unsubscribePush } from "../utils/push-client";

type Permission = NotificationPermission | "unsupported";
const permissionNow = (): Permission => (notificationsSupported() ? Notification.permission : "unsupported");

/** Issue 13 item 7: the user's sound, desktop and push choices, with what the browser allows. */
export function NotificationPreferencesDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { data, isLoading } = useNotificationPreferences();
  const prefs = preferencesOrDefault(data);
  const save = useSaveNotificationPreferences();
  const [permission, setPermission] = useState<Permission>(permissionNow);
  const [subscribed, setSubscribed] = useState<boolean | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const canPush = pushSupported();

  useEffect(() => {
    if (!open) return;
    setPermission(permissionNow());
    currentSubscription()
      .then((s) => setSubscribed(!!s))
      .catch(() => setSubscribed(false));
  }, [open]);

  /** Asked from the switch the user just turned on, never unprompted. */
  async function ensurePermission(): Promise<boolean> {
    if (permission === "granted") return true;
    if (permission !== "default") return false;
    const answer = await Notification.requestPermission();
    setPermission(answer);
    return answer === "granted";
  }

  async function change(input: NotificationPreferencesInput, work?: () => Promise<void>) {
    setBusy(true);
    try {
      await work?.();
      await save.mutateAsync(input);
    } catch (error) {
      // The browser's own refusal (no push service reachable, a private window): said plainly.
      if (error instanceof ApiError) toastError(error);
      else toast.error(t("notificationPreferences.subscribeFailed"));
    } finally {
      setBusy(false);
    }
  }

  const onSound = (on: boolean) => change({ sound: on }, async () => (on ? playChime() : undefined));
  const onDesktop = (on: boolean) =>
    change({ desktop: on }, async () => {
      if (on) await ensurePermission();
    });
  const onPush = (on: boolean) =>
    change({ push: on }, async () => {
      if (on) {
        if (!(await ensurePermission())) return;
        await subscribePush();
        setSubscribed(true);
      } else {
        await unsubscribePush();
        setSubscribed(false);
      }
    });

  const denied = permission === "denied";
  const disabled = isLoading || busy;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="notification-preferences-title">
      <DialogTitle id="notification-preferences-title">{t("notificationPreferences.title")}</DialogTitle>
      <DialogContent>
        {denied && (
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="notifications-denied">
            {t("notificationPreferences.denied")}
          </Alert>
        )}
        <FormGroup>
          <FormControlLabel
            control={<Switch checked={prefs.sound} disabled={disabled} onChange={(_, on) => onSound(on)} />}
            label={t("notificationPreferences.sound")}
          />
          <FormHelperText sx={{ mt: -0.5, mb: 1.5 }}>{t("notificationPreferences.soundHelp")}</FormHelperText>
          <FormControlLabel
            control={
              <Switch
                checked={prefs.desktop && permission === "granted"}
                disabled={disabled || denied || permission === "unsupported"}
                onChange={(_, on) => onDesktop(on)}
              />
            }
            label={t("notificationPreferences.desktop")}
          />
          <FormHelperText sx={{ mt: -0.5, mb: 1.5 }}>
            {permission === "unsupported"
              ? t("notificationPreferences.desktopUnsupported")
              : permission === "default" && prefs.desktop
                ? t("notificationPreferences.permissionNeeded")
                : t("notificationPreferences.desktopHelp")}
          </FormHelperText>
          <FormControlLabel
            control={
              <Switch
                checked={prefs.push && canPush && permission === "granted" && subscribed !== false}
                disabled={disabled || denied || !canPush}
                onChange={(_, on) => onPush(on)}
              />
            }
            label={t("notificationPreferences.push")}
          />
          <FormHelperText sx={{ mt: -0.5 }} data-testid="push-state">
            {!canPush
              ? t("notificationPreferences.pushUnsupported")
              : prefs.push && subscribed
                ? t("notificationPreferences.pushOn")
                : t("notificationPreferences.pushHelp")}
          </FormHelperText>
        </FormGroup>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("notificationPreferences.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
