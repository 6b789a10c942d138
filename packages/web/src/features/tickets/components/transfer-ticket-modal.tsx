import Autocomplete from "@mui/material/Autocomplete";
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
import TextField from "@mui/material/TextField";
import type { User } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useQueues } from "../../../lib/queries/use-queues";
import { useUserLookup } from "../api/lookups";
import { transferChange, useUpdateTicket } from "../api/update-ticket";

/** Spec §4: transfer to a user (search from 3 characters) and/or a queue, then back to the list. */
export function TransferTicketModal({ ticketId, open, onClose }: { ticketId: number; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [target, setTarget] = useState<User | null>(null);
  const [queueId, setQueueId] = useState<number | "">("");
  const lookup = useUserLookup(text);
  const { data: queues = [] } = useQueues();
  const update = useUpdateTicket();

  const close = () => {
    setText("");
    setTarget(null);
    setQueueId("");
    onClose();
  };

  const submit = async () => {
    const change = transferChange(target?.id ?? null, queueId === "" ? null : queueId);
    await update.mutateAsync({ id: ticketId, change, transfer: true }).catch(() => undefined);
    close();
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="transfer-title">
      <DialogTitle id="transfer-title">{t("tickets.transfer.title")}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Autocomplete<User>
            options={lookup.options}
            filterOptions={(x) => x}
            loading={lookup.loading}
            value={target}
            inputValue={text}
            onInputChange={(_e, value) => setText(value)}
            onChange={(_e, value) => setTarget(value)}
            getOptionLabel={(u) => u.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            noOptionsText={t("tickets.transfer.noOptions")}
            renderInput={(params) => <TextField {...params} autoFocus label={t("tickets.transfer.user")} />}
          />
          <FormControl fullWidth>
            <InputLabel id="transfer-queue-label">{t("tickets.transfer.queue")}</InputLabel>
            <Select
              labelId="transfer-queue-label"
              label={t("tickets.transfer.queue")}
              value={queueId}
              onChange={(e) => setQueueId(e.target.value as number | "")}
            >
              <MenuItem value="">&nbsp;</MenuItem>
              {queues.map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  {queue.name}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} color="inherit">
          {t("tickets.buttons.cancel")}
        </Button>
        <Button variant="contained" onClick={submit} disabled={update.isPending || (!target && queueId === "")}>
          {t("tickets.transfer.ok")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
