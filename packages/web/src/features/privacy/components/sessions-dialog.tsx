import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import type { SessionInfo } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth";
import { toast } from "../../../lib/toast";
import { deviceOf, useEndSession, useSessions } from "../api/privacy";

/** Issue 22 §5: the signed-in user's sessions (device, address, since, last seen); any of them ends at once. */
export function SessionsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const { logout } = useAuth();
  const { data, isLoading } = useSessions(open);
  const end = useEndSession();
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  const device = (session: SessionInfo) => {
    const { browser, os } = deviceOf(session.userAgent);
    if (browser && os) return t("sessions.device", { browser, os });
    return browser || os || t("sessions.unknownDevice");
  };

  function endSession(session: SessionInfo) {
    end.mutate(session.id, {
      onSuccess: () => {
        if (session.current) logout();
        else toast.success(t("sessions.ended"));
      },
    });
  }

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="sessions-title">
      <DialogTitle id="sessions-title">{t("sessions.title")}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t("sessions.intro")}
        </Typography>
        {isLoading && <Typography>{t("sessions.loading")}</Typography>}
        <List dense aria-label={t("sessions.title")}>
          {(data?.sessions ?? []).map((session) => (
            <ListItem
              key={session.id}
              divider
              secondaryAction={
                <Button
                  size="small"
                  color={session.current ? "inherit" : "error"}
                  disabled={end.isPending}
                  onClick={() => endSession(session)}
                >
                  {session.current ? t("sessions.signOutHere") : t("sessions.end")}
                </Button>
              }
            >
              <ListItemText
                primary={
                  <>
                    <span title={session.userAgent}>{device(session)}</span>{" "}
                    {session.current && <Chip size="small" color="primary" label={t("sessions.current")} />}
                  </>
                }
                secondary={t("sessions.details", {
                  ip: session.ip || "?",
                  created: when(session.createdAt),
                  seen: when(session.lastSeenAt),
                })}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("sessions.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
