import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { Ticket } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { pictureOf } from "../../../lib/capabilities";
import { TicketTags } from "../../tags/components/ticket-tags";
import { TicketActions } from "./ticket-actions";
import { TicketRating } from "./ticket-rating";

/** Spec §2: contact, #id and 'Assigned to', with the actions of spec §4; the contact opens the drawer. */
interface TicketHeaderProps {
  ticket: Ticket;
  onOpenContact(): void;
  /** Narrow screens show one pane at a time: a way back to the list. */
  onBack?(): void;
}

export function TicketHeader({ ticket, onOpenContact, onBack }: TicketHeaderProps) {
  const { t, i18n } = useTranslation();
  return (
    // A size container: the actions fold into a menu when the header, not the window, is narrow.
    <Paper
      square
      variant="outlined"
      sx={{ display: "flex", alignItems: "center", gap: 1, p: 1, containerType: "inline-size", containerName: "ticket-header" }}
    >
      {onBack && (
        <IconButton aria-label={t("tickets.header.back")} onClick={onBack}>
          <ArrowBackIcon />
        </IconButton>
      )}
      <ButtonBase
        onClick={onOpenContact}
        aria-label={t("tickets.header.contactDetails", { name: ticket.contact.name })}
        sx={{ display: "flex", gap: 1, alignItems: "center", textAlign: "left", borderRadius: 1, p: 0.5, flex: 1, minWidth: 120 }}
      >
        <Avatar src={pictureOf(ticket.contact, ticket.whatsapp?.provider)} alt={ticket.contact.name} />
        <Box sx={{ minWidth: 0 }}>
          <Typography noWrap component="h2" sx={{ fontWeight: 500 }}>
            {ticket.contact.name}{" "}
            <Typography component="span" variant="body2" color="text.secondary">
              #{ticket.id}
            </Typography>
            <TicketRating rating={ticket.rating} />
          </Typography>
          {ticket.user && (
            <Typography variant="caption" color="text.secondary" noWrap component="p">
              {t("tickets.header.assignedTo", { name: ticket.user.name })}
            </Typography>
          )}
          {ticket.status === "closed" && ticket.closingReason && (
            <Typography variant="caption" color="text.secondary" noWrap component="p" data-testid="ticket-closing-reason">
              {t("closingReasons.header.closed", {
                reason: ticket.closingReason.name,
                value:
                  ticket.closingReason.value === null
                    ? ""
                    : ` · ${ticket.closingReason.value.toLocaleString(i18n.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
              })}
            </Typography>
          )}
        </Box>
      </ButtonBase>
      <TicketTags ticket={ticket} />
      <TicketActions ticket={ticket} />
    </Paper>
  );
}
