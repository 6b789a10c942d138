import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useQueryClient } from "@tanstack/react-query";
import type { Message } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { lazyNamed, OnDemand } from "../../components/ui/on-demand";
import { Composer, MessagesList } from "../../features/conversation";
import { PendingSchedules } from "../../features/schedules";
import {
  ContactDrawer,
  EmptyTicketPane,
  TicketHeader,
  TicketsManager,
  ticketKeys,
  useTicket,
  useTicketMovedAway,
} from "../../features/tickets";

const ContactModal = lazyNamed(() => import("../../features/contacts/components/contact-modal"), "ContactModal");

/** The open ticket: header and drawer from tickets, messages and composer from conversation. */
function TicketPane({ ticketId, narrow, roomy }: { ticketId: number; narrow: boolean; roomy: boolean }) {
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

/** Spec §2 `/tickets/:ticketId?`: the list left, the ticket right; small screens show one at a time. */
export default function TicketsPage() {
  const { ticketId } = useParams();
  const id = ticketId && /^\d+$/.test(ticketId) ? Number(ticketId) : undefined;
  const wide = useMediaQuery("(min-width:900px)", { noSsr: true });
  // Menu, list, a conversation of a sane width and the 320 px contact drawer side by side need this much.
  const roomy = useMediaQuery("(min-width:1600px)", { noSsr: true });
  return (
    <Box sx={{ display: "flex", height: "100%", p: { xs: 0, md: 1 }, gap: 1 }}>
      {(wide || !id) && (
        <Box sx={{ width: wide ? 420 : "100%", flexShrink: 0, minHeight: 0 }}>
          <TicketsManager selectedId={id} />
        </Box>
      )}
      {(wide || id) && (
        <Paper square variant="outlined" sx={{ flex: 1, minWidth: 0, overflow: "hidden" }}>
          {id ? <TicketPane key={id} ticketId={id} narrow={!wide} roomy={roomy} /> : <EmptyTicketPane />}
        </Paper>
      )}
    </Box>
  );
}
