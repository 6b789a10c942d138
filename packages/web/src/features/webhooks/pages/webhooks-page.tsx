import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import History from "@mui/icons-material/History";
import Key from "@mui/icons-material/Key";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { Webhook } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { PageContainer } from "../../../components/ui/page-container";
import { ROW_ACTIONS_SX } from "../../../components/ui/row-actions";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { toast } from "../../../lib/toast";
import { useDeleteWebhook, useRotateSecret, useWebhooks } from "../api/webhooks";
import { DeliveriesDialog } from "../components/deliveries-dialog";
import { DeliveryStatusChip } from "../components/delivery-status-chip";
import { SecretDialog } from "../components/secret-dialog";
import { WebhookModal } from "../components/webhook-modal";

/** Admin screen: outbound webhooks, their last delivery, secrets and delivery log (issue 11 item 6). */
export default function WebhooksPage() {
  const { t } = useTranslation();
  const { data, isLoading } = useWebhooks();
  const [modal, setModal] = useState<{ open: boolean; webhook: Webhook | null }>({ open: false, webhook: null });
  const [secret, setSecret] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const [viewing, setViewing] = useState<Webhook | null>(null);
  const remove = useDeleteWebhook();
  const rotate = useRotateSecret();
  const webhooks = data?.webhooks ?? [];

  return (
    <PageContainer
      title={t("webhooks.title")}
      actions={
        <Button variant="contained" onClick={() => setModal({ open: true, webhook: null })}>
          {t("webhooks.buttons.add")}
        </Button>
      }
    >
      <WebhookModal
        open={modal.open}
        webhook={modal.webhook}
        onClose={() => setModal({ open: false, webhook: null })}
        onCreated={(created) => setSecret(created.secret)}
      />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      <DeliveriesDialog webhook={viewing} onClose={() => setViewing(null)} />
      <ConfirmDialog
        open={!!deleting}
        title={t("webhooks.confirm.deleteTitle", { url: deleting?.url ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => toast.success(t("webhooks.toasts.deleted")) })}
      >
        {t("webhooks.confirm.deleteMessage")}
      </ConfirmDialog>
      <ConfirmDialog
        open={!!rotating}
        title={t("webhooks.confirm.rotateTitle")}
        onClose={() => setRotating(null)}
        onConfirm={() => rotating && rotate.mutate(rotating.id, { onSuccess: (result) => setSecret(result.secret) })}
      >
        {t("webhooks.confirm.rotateMessage")}
      </ConfirmDialog>
      <Typography variant="body2" color="text.secondary" sx={{ px: 1, pb: 1 }}>
        {t("webhooks.intro")}
      </Typography>
      <Table size="small" aria-label={t("webhooks.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("webhooks.table.url")}</TableCell>
            <TableCell>{t("webhooks.table.events")}</TableCell>
            <TableCell>{t("webhooks.table.enabled")}</TableCell>
            <TableCell>{t("webhooks.table.secret")}</TableCell>
            <TableCell>{t("webhooks.table.lastDelivery")}</TableCell>
            <TableCell align="center" sx={ROW_ACTIONS_SX}>
              {t("webhooks.table.actions")}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {webhooks.map((webhook) => (
            <TableRow key={webhook.id} data-webhook-id={webhook.id}>
              <TableCell sx={{ maxWidth: 360, wordBreak: "break-all" }}>{webhook.url}</TableCell>
              <TableCell>
                <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: "wrap" }}>
                  {webhook.events.map((event) => (
                    <Chip key={event} size="small" variant="outlined" label={event} />
                  ))}
                </Stack>
              </TableCell>
              <TableCell>{webhook.enabled ? t("webhooks.table.yes") : t("webhooks.table.no")}</TableCell>
              <TableCell sx={{ fontFamily: "monospace" }}>…{webhook.secretHint}</TableCell>
              <TableCell>
                {webhook.lastDelivery ? (
                  <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                    <DeliveryStatusChip status={webhook.lastDelivery.status} />
                    <span>{webhook.lastDelivery.responseStatus ?? ""}</span>
                  </Stack>
                ) : (
                  "—"
                )}
              </TableCell>
              <TableCell align="center" sx={ROW_ACTIONS_SX}>
                <Tooltip title={t("webhooks.buttons.deliveries")}>
                  <IconButton
                    size="small"
                    aria-label={t("webhooks.buttons.deliveriesOf", { url: webhook.url })}
                    onClick={() => setViewing(webhook)}
                  >
                    <History />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t("webhooks.buttons.rotate")}>
                  <IconButton
                    size="small"
                    aria-label={t("webhooks.buttons.rotateOf", { url: webhook.url })}
                    onClick={() => setRotating(webhook)}
                  >
                    <Key />
                  </IconButton>
                </Tooltip>
                <IconButton
                  size="small"
                  aria-label={t("common.editItem", { name: webhook.url })}
                  onClick={() => setModal({ open: true, webhook })}
                >
                  <Edit />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t("common.deleteItem", { name: webhook.url })}
                  onClick={() => setDeleting(webhook)}
                >
                  <DeleteOutline />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
          {isLoading && <TableLoadingRow columns={6} />}
          {data && webhooks.length === 0 && (
            <TableRow>
              <TableCell colSpan={6} align="center">
                {t("webhooks.empty")}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </PageContainer>
  );
}
