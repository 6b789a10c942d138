import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import Stack from "@mui/material/Stack";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useQueues } from "../../../lib/queries/use-queues";
import { TransferAgentList } from "../../routing/transfer-agent-list";
import { transferChange, useUpdateTicket } from "../api/update-ticket";

/**
 * Transfer in one step (issue 13): the ticket's queue preselected, its agents listed with their
 * presence and open tickets (the box only filters); pick one, or "Queue only", and confirm. The
 * request is spec §4's `PUT /api/tickets/:id`.
 */
export function TransferTicketModal({
  ticketId,
  queueId: currentQueueId = null,
  open,
  onClose,
}: {
  ticketId: number;
  queueId?: number | null;
  open: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<number | null>(null);
  const [queueId, setQueueId] = useState<number | "">(currentQueueId ?? "");
  const { data: queues = [] } = useQueues();
  const update = useUpdateTicket();

  const close = () => {
    setTarget(null);
    setQueueId(currentQueueId ?? "");
    onClose();
  };

  const submit = async () => {
    const change = transferChange(target, queueId === "" ? null : queueId);
    await update.mutateAsync({ id: ticketId, change, transfer: true }).catch(() => undefined);
    close();
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="transfer-title">
      <DialogTitle id="transfer-title">{t("tickets.transfer.title")}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <FormControl fullWidth>
            <InputLabel id="transfer-queue-label">{t("tickets.transfer.queue")}</InputLabel>
            <Select
              labelId="transfer-queue-label"
              label={t("tickets.transfer.queue")}
              value={queueId}
              onChange={(e) => {
                setQueueId(e.target.value as number | "");
                setTarget(null);
              }}
            >
              <MenuItem value="">&nbsp;</MenuItem>
              {queues.map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  {queue.name}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <TransferAgentList queueId={queueId === "" ? null : queueId} value={target} onChange={setTarget} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} color="inherit">
          {t("tickets.buttons.cancel")}
        </Button>
        <Button variant="contained" onClick={submit} disabled={update.isPending || (target === null && queueId === "")}>
          {t("tickets.transfer.ok")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
