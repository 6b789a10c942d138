import MoreVertIcon from "@mui/icons-material/MoreVert";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import { can, type Ticket } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { MessageDialog } from "../../../components/ui/message-dialog";
import { useAuth } from "../../../lib/auth";
import { useDeleteTicket, useProtocol } from "../api/ticket-commands";
import { ticketChanges, useUpdateTicket } from "../api/update-ticket";
import { TransferTicketModal } from "./transfer-ticket-modal";

/** The buttons of spec §4 for the ticket's status; Delete is for admins only (spec §6). */
export function TicketActions({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const update = useUpdateTicket();
  const remove = useDeleteTicket();
  const protocol = useProtocol();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [transferOpen, setTransferOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  if (!user) return null;
  const busy = update.isPending || protocol.isPending;
  const change = (payload: ReturnType<typeof ticketChanges.accept>) => update.mutate({ id: ticket.id, change: payload });
  const canDelete = can(user, "ticket-options:deleteTicket");

  const runProtocol = () =>
    protocol.mutate(ticket.id, {
      onSuccess: (result) => setNotice(t("tickets.protocol.done", { protocol: result.protocol })),
    });

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
      {ticket.status === "pending" && (
        <Button size="small" variant="contained" disabled={busy} onClick={() => change(ticketChanges.accept(user.id))}>
          {t("tickets.buttons.accept")}
        </Button>
      )}
      {ticket.status === "open" && (
        <>
          <Button size="small" disabled={busy} onClick={() => change(ticketChanges.return())}>
            {t("tickets.buttons.return")}
          </Button>
          <Button size="small" variant="contained" disabled={busy} onClick={() => change(ticketChanges.resolve(user.id))}>
            {t("tickets.buttons.resolve")}
          </Button>
          <Button size="small" variant="outlined" disabled={busy} onClick={runProtocol}>
            {t("tickets.buttons.protocol")}
          </Button>
        </>
      )}
      {ticket.status === "closed" && (
        <Button size="small" variant="contained" disabled={busy} onClick={() => change(ticketChanges.reopen(user.id))}>
          {t("tickets.buttons.reopen")}
        </Button>
      )}
      {(ticket.status !== "closed" || canDelete) && (
        <IconButton aria-label={t("tickets.buttons.options")} onClick={(e) => setMenu(e.currentTarget)}>
          <MoreVertIcon />
        </IconButton>
      )}
      <Menu anchorEl={menu} open={!!menu} onClose={() => setMenu(null)}>
        {ticket.status !== "closed" && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              setTransferOpen(true);
            }}
          >
            {t("tickets.buttons.transfer")}
          </MenuItem>
        )}
        {canDelete && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              setConfirmDelete(true);
            }}
          >
            {t("tickets.buttons.delete")}
          </MenuItem>
        )}
      </Menu>
      <TransferTicketModal ticketId={ticket.id} open={transferOpen} onClose={() => setTransferOpen(false)} />
      <ConfirmDialog
        title={t("tickets.delete.title", { id: ticket.id })}
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => remove.mutate(ticket.id)}
      >
        {t("tickets.delete.message")}
      </ConfirmDialog>
      <MessageDialog
        message={notice}
        onClose={() => {
          setNotice(null);
          navigate("/tickets");
        }}
      />
    </Stack>
  );
}
