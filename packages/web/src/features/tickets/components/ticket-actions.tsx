import MoreVertIcon from "@mui/icons-material/MoreVert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import { useQueryClient } from "@tanstack/react-query";
import { type ClosingChoice, can, type Ticket } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { MessageDialog } from "../../../components/ui/message-dialog";
import { lazyNamed, OnDemand } from "../../../components/ui/on-demand";
import { useAuth } from "../../../lib/auth";
import { useQueues } from "../../../lib/queries/use-queues";
import { ClosingReasonPicker } from "../../closing-reasons";
import { exportConversation } from "../../conversation/utils/export-csv";
import { RunMacroDialog } from "../../macros";
import { useTicketShortcuts } from "../../shortcuts/use-ticket-shortcuts";
import { useGoToNextTicket } from "../api/next-ticket";
import { useDeleteTicket, useProtocol } from "../api/ticket-commands";
import { ticketChanges, useUpdateTicket } from "../api/update-ticket";

const TransferTicketModal = lazyNamed(() => import("./transfer-ticket-modal"), "TransferTicketModal");

type ActionKey = "accept" | "return" | "resolve" | "protocol" | "reopen" | "transfer" | "macros" | "export" | "delete";
interface Action {
  key: ActionKey;
  run(): void;
  variant: "text" | "contained" | "outlined";
}
const action = (key: ActionKey, run: () => void, variant: Action["variant"] = "text"): Action => ({ key, run, variant });

/** The ticket header is a size container (see TicketHeader): below this width its actions fold into one menu. */
export const ACTIONS_FOLD_PX = 520;
const INLINE = "ticket-actions-inline";
const COMPACT = "ticket-actions-compact";
const COLLAPSE = {
  display: "flex",
  alignItems: "center",
  [`& .${COMPACT}`]: { display: "none" },
  [`@container ticket-header (max-width: ${ACTIONS_FOLD_PX}px)`]: {
    [`& .${INLINE}`]: { display: "none" },
    [`& .${COMPACT}`]: { display: "inline-flex" },
  },
} as const;

/** The buttons of spec §4 for the ticket's status; Delete is for admins only (spec §6). */
export function TicketActions({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const client = useQueryClient();
  const goToNext = useGoToNextTicket();
  const update = useUpdateTicket();
  const remove = useDeleteTicket();
  const protocol = useProtocol();
  const [menu, setMenu] = useState<{ anchor: HTMLElement; compact: boolean } | null>(null);
  const [transferOpen, setTransferOpen] = useState(false);
  const [macrosOpen, setMacrosOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  // Issue 23 §6: Resolve and Protocolo ask for a closing reason when the ticket's queue wants one.
  const { data: queues } = useQueues();
  const closingMode = queues?.find((q) => q.id === ticket.queueId)?.closingReason ?? "off";
  const [closing, setClosing] = useState<{ kind: "resolve" | "protocol"; userId: number } | null>(null);
  const resolve = (userId: number, choice: ClosingChoice = {}) =>
    update.mutate({ id: ticket.id, change: { ...ticketChanges.resolve(userId), ...choice } });
  const startResolve = (userId: number) => (closingMode === "off" ? resolve(userId) : setClosing({ kind: "resolve", userId }));
  // Issue 13 keyboard-first: a accepts, e resolves, t opens the transfer dialog.
  useTicketShortcuts(ticket, {
    accept: (userId) => update.mutate({ id: ticket.id, change: ticketChanges.accept(userId) }),
    resolve: startResolve,
    transfer: () => setTransferOpen(true),
    busy: update.isPending || protocol.isPending,
  });
  if (!user) return null;
  const busy = update.isPending || protocol.isPending;
  const change = (payload: ReturnType<typeof ticketChanges.accept>) => update.mutate({ id: ticket.id, change: payload });
  const canDelete = can(user, "ticket-options:deleteTicket");

  const runProtocol = (choice: ClosingChoice = {}) =>
    protocol.mutate(
      { id: ticket.id, choice },
      { onSuccess: (result) => setNotice(t("tickets.protocol.done", { protocol: result.protocol })) },
    );
  const startProtocol = () => (closingMode === "off" ? runProtocol() : setClosing({ kind: "protocol", userId: user.id }));

  // The buttons of the status, and what the options menu holds; a narrow header shows all in one menu.
  const primary: Action[] = [];
  if (ticket.status === "pending") primary.push(action("accept", () => change(ticketChanges.accept(user.id)), "contained"));
  if (ticket.status === "open") {
    primary.push(action("return", () => change(ticketChanges.return())));
    primary.push(action("resolve", () => startResolve(user.id), "contained"));
    primary.push(action("protocol", startProtocol, "outlined"));
  }
  if (ticket.status === "closed") primary.push(action("reopen", () => change(ticketChanges.reopen(user.id)), "contained"));
  const secondary: Action[] = [];
  if (ticket.status !== "closed") secondary.push(action("transfer", () => setTransferOpen(true)));
  // Issue 23 §2: run one of the user's macros (or a shared one) on the ticket.
  secondary.push(action("macros", () => setMacrosOpen(true)));
  // Issue 13: the CSV export moved here from above the messages.
  secondary.push(action("export", () => void exportConversation(client, ticket.id)));
  if (canDelete) secondary.push(action("delete", () => setConfirmDelete(true)));
  // Folded, the status's main action (Accept, Resolve, Reopen) stays a button (issue 20); the rest share the menu.
  const main = primary.find((a) => a.variant === "contained");
  const listed = menu?.compact ? [...primary.filter((a) => a !== main), ...secondary] : secondary;

  return (
    <Box sx={COLLAPSE}>
      <Stack className={INLINE} direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "nowrap" }}>
        {primary.map((a) => (
          <Button key={a.key} size="small" variant={a.variant} disabled={busy} onClick={a.run} sx={{ whiteSpace: "nowrap" }}>
            {t(`tickets.buttons.${a.key}`)}
          </Button>
        ))}
        {secondary.length > 0 && (
          <IconButton
            aria-label={t("tickets.buttons.options")}
            onClick={(e) => setMenu({ anchor: e.currentTarget, compact: false })}
          >
            <MoreVertIcon />
          </IconButton>
        )}
      </Stack>
      <Stack className={COMPACT} direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
        {main && (
          <Button size="small" variant="contained" disabled={busy} onClick={main.run} sx={{ whiteSpace: "nowrap" }}>
            {t(`tickets.buttons.${main.key}`)}
          </Button>
        )}
        <IconButton
          aria-label={t("tickets.buttons.actions")}
          aria-haspopup="menu"
          onClick={(e) => setMenu({ anchor: e.currentTarget, compact: true })}
        >
          <MoreVertIcon />
        </IconButton>
      </Stack>
      <Menu anchorEl={menu?.anchor} open={!!menu} onClose={() => setMenu(null)}>
        {listed.map((a) => (
          <MenuItem
            key={a.key}
            disabled={busy && primary.includes(a)}
            onClick={() => {
              setMenu(null);
              a.run();
            }}
          >
            {t(`tickets.buttons.${a.key}`)}
          </MenuItem>
        ))}
      </Menu>
      <OnDemand when={transferOpen}>
        <TransferTicketModal
          ticketId={ticket.id}
          queueId={ticket.queueId}
          open={transferOpen}
          onClose={() => setTransferOpen(false)}
        />
      </OnDemand>
      {macrosOpen && <RunMacroDialog ticketId={ticket.id} open onClose={() => setMacrosOpen(false)} />}
      <ConfirmDialog
        title={t("tickets.delete.title", { id: ticket.id })}
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => remove.mutate(ticket.id)}
      >
        {t("tickets.delete.message")}
      </ConfirmDialog>
      {closingMode !== "off" && (
        <ClosingReasonPicker
          open={!!closing}
          mode={closingMode}
          title={t(closing?.kind === "protocol" ? "closingReasons.picker.titleProtocol" : "closingReasons.picker.title")}
          confirmLabel={t(`tickets.buttons.${closing?.kind ?? "resolve"}`)}
          busy={busy}
          onCancel={() => setClosing(null)}
          onConfirm={(choice) => {
            if (!closing) return;
            setClosing(null);
            if (closing.kind === "protocol") runProtocol(choice);
            else resolve(closing.userId, choice);
          }}
        />
      )}
      <MessageDialog
        message={notice}
        onClose={() => {
          setNotice(null);
          void goToNext(ticket.id);
        }}
      />
    </Box>
  );
}
