import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import type { Message } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { lazyNamed, OnDemand } from "../../components/ui/on-demand";
import { Composer, MessagesList } from "../../features/conversation";
import { PendingSchedules } from "../../features/schedules";
import { ContactDrawer, TicketHeader, ticketKeys, useTicket, useTicketMovedAway } from "../../features/tickets";

const ContactModal = lazyNamed(() => import("../../features/contacts/components/contact-modal"), "ContactModal");

/** The open ticket: header and drawer from tickets, messages and composer from conversation. */
export function TicketPane({ ticketId, narrow, roomy }: { ticketId: number; narrow: boolean; roomy: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { data: ticket, isError } = useTicket(ticketId);
  const movedAway = useTicketMovedAway(ticketId);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  // `?message=<id>`: a search result opens the chat on the message it matched.
  const [search] = useSearchParams();
  const around = /^\d+$/.test(search.get("message") ?? "") ? Number(search.get("message")) : undefined;

  if (isError) return <Typography sx={{ p: 2 }}>{t("tickets.notFound")}</Typography>;
  if (!ticket) {
    return (
      <Box sx={{ display: "grid", placeItems: "center", height: "100%" }}>
        <CircularProgress aria-label={t("common.loading")} />
      </Box>
    );
  }
  return (
    <Box sx={{ display: "flex", height: "100%", minWidth: 0 }}>
      <Box sx={{ flex: 1, display: "flex", flexDirection: "column", minWidth: 0 }}>
        <TicketHeader
          ticket={ticket}
          onOpenContact={() => setDrawerOpen(true)}
          onBack={narrow ? () => navigate("/tickets") : undefined}
        />
        <MessagesList
          key={`${ticket.id}-${around ?? "live"}`}
          ticketId={ticket.id}
          aroundMessageId={around}
          isGroup={ticket.isGroup}
          provider={ticket.whatsapp?.provider}
          onReply={setReplyTo}
        />
        <PendingSchedules ticketId={ticket.id} />
        <Composer
          key={`input-${ticket.id}`}
          ticket={ticket}
          movedAway={movedAway}
          replyTo={replyTo}
          onCancelReply={() => setReplyTo(null)}
        />
      </Box>
      <ContactDrawer
        open={drawerOpen}
        onClose={() => setDrawerOpen(false)}
        contact={ticket.contact}
        provider={ticket.whatsapp?.provider}
        isGroup={ticket.isGroup}
        onEdit={() => setEditing(true)}
        overlay={!roomy}
      />
      <OnDemand when={editing}>
        <ContactModal
          open={editing}
          onClose={() => {
            setEditing(false);
            // The header and drawer show the ticket's copy of the contact: read it again after an edit.
            client.invalidateQueries({ queryKey: ticketKeys.detail(ticketId) });
          }}
          contactId={ticket.contact.id}
        />
      </OnDemand>
    </Box>
  );
}
