import RefreshIcon from "@mui/icons-material/Refresh";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import { can, type Template } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth";
import { formatDay, formatHourMinute } from "../../../lib/format-time";
import { useTemplates } from "../api/get-templates";
import { useSendTemplate } from "../api/send-template";
import { useSyncTemplates } from "../api/sync-templates";
import { TemplateForm } from "./template-form";
import { TemplateList } from "./template-list";

interface TemplateDialogProps {
  open: boolean;
  onClose(): void;
  ticketId: number;
  whatsappId: number;
}

/**
 * Pick an approved template, fill its variables, preview it and send it. Loaded on demand.
 * Refreshing from Meta is connection management: admins only, the server refuses agents too.
 */
export default function TemplateDialog({ open, onClose, ticketId, whatsappId }: TemplateDialogProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const canRefresh = can(user, "connections:manage");
  const templates = useTemplates(whatsappId);
  const sync = useSyncTemplates(whatsappId);
  const send = useSendTemplate(ticketId);
  const [chosen, setChosen] = useState<Template | null>(null);
  const syncedAt = templates.data?.syncedAt;

  const close = () => {
    setChosen(null);
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="template-dialog-title">
      <DialogTitle id="template-dialog-title">{t("conversation.templates.title")}</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, mb: 1 }}>
          <Typography variant="caption" color="text.secondary" sx={{ flex: 1 }}>
            {syncedAt
              ? t("conversation.templates.syncedAt", {
                  when: `${formatDay(new Date(syncedAt))} ${formatHourMinute(new Date(syncedAt))}`,
                })
              : t("conversation.templates.neverSynced")}
          </Typography>
          {canRefresh && (
            <Button
              size="small"
              startIcon={sync.isPending ? <CircularProgress size={16} /> : <RefreshIcon />}
              onClick={() => sync.mutate()}
              disabled={sync.isPending}
            >
              {t("conversation.templates.refresh")}
            </Button>
          )}
        </Box>
        {templates.isLoading ? (
          <CircularProgress aria-label={t("common.loading")} />
        ) : chosen ? (
          <TemplateForm
            key={`${chosen.name}:${chosen.language}`}
            template={chosen}
            sending={send.isPending}
            onBack={() => setChosen(null)}
            onSend={(input) => send.mutateAsync(input).then(close)}
          />
        ) : (
          <TemplateList templates={templates.data?.templates ?? []} onPick={setChosen} canRefresh={canRefresh} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} color="inherit">
          {t("common.close")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
