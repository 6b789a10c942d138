import Box from "@mui/material/Box";
import type { Ticket } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useSetTicketTags } from "../api/tags-api";
import { TagPicker } from "./tag-picker";

/** The ticket header's tags: anyone who may act on the ticket adds and removes them. */
export function TicketTags({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const save = useSetTicketTags();
  return (
    <Box sx={{ flex: "0 1 auto", minWidth: 32, display: "flex" }}>
      <TagPicker
        value={ticket.tags ?? []}
        disabled={save.isPending}
        label={t("tags.picker.ticketLabel", { id: ticket.id })}
        compact
        onChange={(tagIds) => save.mutate({ ticketId: ticket.id, tagIds })}
      />
    </Box>
  );
}
