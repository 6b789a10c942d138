import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { WEBHOOK_DELIVERIES_PAGE_SIZE, WEBHOOK_DELIVERY_STATUSES, type Webhook, type WebhookDeliveryStatus } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { formatDay, formatHourMinute } from "../../../lib/format-time";
import { toast } from "../../../lib/toast";
import { useDeliveries, useResendDelivery } from "../api/webhooks";
import { DeliveryStatusChip } from "./delivery-status-chip";

const when = (iso: string | null) => {
  if (!iso) return "—";
  const date = new Date(iso);
  return `${formatDay(date)} ${formatHourMinute(date)}:${String(date.getSeconds()).padStart(2, "0")}`;
};

/** A webhook's deliveries, newest first: the last attempt's outcome, and Resend on a failed one. */
export function DeliveriesDialog({ webhook, onClose }: { webhook: Webhook | null; onClose(): void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<WebhookDeliveryStatus | "">("");
  const { data, isLoading } = useDeliveries(webhook?.id, page, status);
  const resend = useResendDelivery();
  const pages = Math.max(1, Math.ceil((data?.count ?? 0) / WEBHOOK_DELIVERIES_PAGE_SIZE));
  // biome-ignore lint/correctness/useExhaustiveDependencies: a different webhook starts on its first page
  useEffect(() => {
    setPage(1);
    setStatus("");
  }, [webhook?.id]);

  return (
    <Dialog open={!!webhook} onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="webhook-deliveries-title">
      <DialogTitle id="webhook-deliveries-title">
        {t("webhooks.deliveries.title")}
        <Typography variant="body2" color="text.secondary" sx={{ wordBreak: "break-all" }}>
          {webhook?.url}
        </Typography>
      </DialogTitle>
      <DialogContent dividers>
        <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: "center" }}>
          <TextField
            select
            size="small"
            label={t("webhooks.deliveries.filter")}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as WebhookDeliveryStatus | "");
              setPage(1);
            }}
            sx={{ minWidth: 180 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{t("webhooks.deliveries.all")}</MenuItem>
            {WEBHOOK_DELIVERY_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {t(`webhooks.status.${s}`)}
              </MenuItem>
            ))}
          </TextField>
          <Typography variant="body2" color="text.secondary">
            {t("webhooks.deliveries.count", { count: data?.count ?? 0 })}
          </Typography>
        </Stack>
        <Table size="small" aria-label={t("webhooks.deliveries.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("webhooks.deliveries.columns.status")}</TableCell>
              <TableCell>{t("webhooks.deliveries.columns.event")}</TableCell>
              <TableCell align="right">{t("webhooks.deliveries.columns.code")}</TableCell>
              <TableCell align="right">{t("webhooks.deliveries.columns.latency")}</TableCell>
              <TableCell align="right">{t("webhooks.deliveries.columns.attempt")}</TableCell>
              <TableCell>{t("webhooks.deliveries.columns.time")}</TableCell>
              <TableCell>{t("webhooks.deliveries.columns.response")}</TableCell>
              <TableCell align="center">{t("webhooks.deliveries.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data?.deliveries.map((d) => (
              <TableRow key={d.id} data-delivery-id={d.id}>
                <TableCell>
                  <DeliveryStatusChip status={d.status} />
                </TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>{d.event}</TableCell>
                <TableCell align="right">{d.responseStatus ?? "—"}</TableCell>
                <TableCell align="right">{d.latencyMs === null ? "—" : `${d.latencyMs} ms`}</TableCell>
                <TableCell align="right">{d.attempt}</TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>
                  {when(d.lastAttemptAt ?? d.createdAt)}
                  {d.nextAttemptAt && (
                    <Typography variant="caption" color="text.secondary" sx={{ display: "block" }}>
                      {t("webhooks.deliveries.nextAttempt", { time: when(d.nextAttemptAt) })}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ maxWidth: 320 }}>
                  {d.error && (
                    <Typography variant="body2" color="error" sx={{ wordBreak: "break-word" }}>
                      {d.error}
                    </Typography>
                  )}
                  {d.responseSnippet && (
                    <Typography
                      variant="caption"
                      component="pre"
                      sx={{ m: 0, whiteSpace: "pre-wrap", wordBreak: "break-all", maxHeight: 80, overflow: "auto" }}
                    >
                      {d.responseSnippet}
                    </Typography>
                  )}
                </TableCell>
                <TableCell align="center">
                  {d.status === "failed" && (
                    <Button
                      size="small"
                      disabled={resend.isPending}
                      onClick={() => resend.mutate(d.id, { onSuccess: () => toast.success(t("webhooks.toasts.resent")) })}
                    >
                      {t("webhooks.deliveries.resend")}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {isLoading && <TableLoadingRow columns={8} />}
            {data && data.deliveries.length === 0 && (
              <TableRow>
                <TableCell colSpan={8} align="center">
                  {t("webhooks.deliveries.empty")}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          {t("webhooks.deliveries.previous")}
        </Button>
        <Typography variant="body2">{t("webhooks.deliveries.page", { page, pages })}</Typography>
        <Button disabled={!data?.hasMore} onClick={() => setPage((p) => p + 1)}>
          {t("webhooks.deliveries.next")}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t("common.close")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
