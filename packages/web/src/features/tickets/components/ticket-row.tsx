import SmartToyIcon from "@mui/icons-material/SmartToy";
import Avatar from "@mui/material/Avatar";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { NO_QUEUE_COLOR, type Ticket } from "@zapdesk/core";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { pictureOf } from "../../../lib/capabilities";
import { formatTicketTime } from "../../../lib/format-time";
import { TagChips } from "../../tags/components/tag-chip";
import { ticketPreview } from "../utils/ticket-preview";
import { TicketRating } from "./ticket-rating";
import { WaitingSince } from "./waiting-since";

interface TicketRowProps {
  ticket: Ticket;
  selected: boolean;
  /** `messageId`: the search's matching message, when the row is a search result. */
  onOpen(id: number, messageId?: number | null): void;
  onAccept(id: number): void;
  accepting: boolean;
}

/** One row of spec §2's list: pending rows carry Accept and are not clickable. */
export const TicketRow = memo(function TicketRow({ ticket, selected, onOpen, onAccept, accepting }: TicketRowProps) {
  const { t } = useTranslation();
  const pending = ticket.status === "pending";
  const queueName = ticket.queue?.name ?? t("tickets.row.noQueue");
  const open = () => {
    if (!pending) onOpen(ticket.id, ticket.matchedMessageId);
  };
  return (
    <Box
      role={pending ? undefined : "button"}
      tabIndex={pending ? -1 : 0}
      aria-label={pending ? undefined : ticket.contact.name}
      aria-current={selected ? "true" : undefined}
      data-ticket-id={ticket.id}
      onClick={open}
      onKeyDown={(e) => {
        if (e.key === "Enter") open();
      }}
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1,
        height: "100%",
        pr: 1,
        borderBottom: "1px solid",
        borderColor: "divider",
        cursor: pending ? "default" : "pointer",
        bgcolor: selected ? "action.selected" : undefined,
        "&:hover": pending ? undefined : { bgcolor: "action.hover" },
      }}
    >
      <Tooltip title={queueName} placement="right">
        <Box
          data-testid="queue-strip"
          aria-label={queueName}
          sx={{ width: 8, alignSelf: "stretch", flexShrink: 0, bgcolor: ticket.queue?.color ?? NO_QUEUE_COLOR }}
        />
      </Tooltip>
      <Avatar src={pictureOf(ticket.contact, ticket.whatsapp?.provider)} alt={ticket.contact.name} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          <Typography noWrap sx={{ flex: 1, fontWeight: 500 }}>
            {ticket.contact.name}
          </Typography>
          <TagChips tags={ticket.tags} max={2} label={t("tags.rowLabel")} />
          {ticket.status === "closed" && <Chip size="small" color="success" label={t("tickets.row.closed")} />}
          <TicketRating rating={ticket.rating} />
          {ticket.botHeld && (
            // Issue 23 §4: a ticket a bot holds (in admins' waiting lists and anyone's search); Accept takes it over.
            <Tooltip title={t("tickets.row.botHeldHint")} describeChild>
              <Chip
                size="small"
                variant="outlined"
                color="info"
                icon={<SmartToyIcon />}
                label={t("tickets.row.botHeld")}
                aria-label={t("tickets.row.botHeld")}
                data-testid="bot-held"
              />
            </Tooltip>
          )}
          {pending && <WaitingSince since={ticket.waitingSince ?? ticket.updatedAt} />}
          <Typography variant="caption" color={ticket.unreadMessages ? "success.main" : "text.secondary"}>
            {formatTicketTime(ticket.updatedAt)}
          </Typography>
        </Box>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1 }}>
            {ticketPreview(ticket.lastMessage, t)}
          </Typography>
          {ticket.unreadMessages > 0 && (
            <Badge
              badgeContent={ticket.unreadMessages}
              color="success"
              aria-label={t("tickets.row.unread", { count: ticket.unreadMessages })}
              sx={{ mr: 1.5 }}
            />
          )}
        </Box>
        {ticket.status === "open" && ticket.user && (
          <Typography variant="caption" color="primary" noWrap component="p">
            {ticket.user.name}
          </Typography>
        )}
        {!ticket.queue && (
          <Typography variant="caption" component="p" color="text.secondary" noWrap>
            {queueName}
          </Typography>
        )}
      </Box>
      {pending && (
        <Button
          size="small"
          variant="contained"
          color="success"
          disabled={accepting}
          onClick={(e) => {
            e.stopPropagation();
            onAccept(ticket.id);
          }}
        >
          {t("tickets.buttons.accept")}
        </Button>
      )}
    </Box>
  );
});
