import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { type BoardColumn as ColumnKey, NO_TAG_COLUMN, type Ticket } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { BoardCard, CARD_MIME, type ColumnInfo } from "./board-card";

interface BoardColumnProps {
  column: ColumnInfo;
  columns: ColumnInfo[];
  tickets: Ticket[];
  busyIds: ReadonlySet<number>;
  onOpen(ticketId: number): void;
  onMove(ticket: Ticket, from: ColumnKey, to: ColumnKey): void;
  /** The tickets on the board by id: a drop names its card by id. */
  find(ticketId: number): Ticket | undefined;
}

function readCard(data: DataTransfer): { ticketId: number; from: ColumnKey } | null {
  try {
    const parsed = JSON.parse(data.getData(CARD_MIME)) as { ticketId: unknown; from: unknown };
    if (typeof parsed.ticketId !== "number") return null;
    const from = parsed.from === NO_TAG_COLUMN ? NO_TAG_COLUMN : typeof parsed.from === "number" ? parsed.from : null;
    return from === null ? null : { ticketId: parsed.ticketId, from };
  } catch {
    return null;
  }
}

/** A tag's column (or "no tag"): a drop target for cards from the other columns. */
export function BoardColumn({ column, columns, tickets, busyIds, onOpen, onMove, find }: BoardColumnProps) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  const headingId = `board-column-${String(column.key)}`;
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      data-column={String(column.key)}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes(CARD_MIME)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "move";
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const card = readCard(e.dataTransfer);
        const ticket = card && find(card.ticketId);
        if (card && ticket && card.from !== column.key) onMove(ticket, card.from, column.key);
      }}
      sx={{
        width: 280,
        flexShrink: 0,
        display: "flex",
        flexDirection: "column",
        maxHeight: "100%",
        bgcolor: over ? "action.hover" : "background.default",
        borderTop: 4,
        borderTopColor: column.tag?.color ?? "grey.400",
      }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, p: 1 }}>
        <Typography id={headingId} component="h2" variant="subtitle2" noWrap sx={{ flex: 1 }}>
          {column.title}
        </Typography>
        <Typography variant="caption" color="text.secondary" aria-label={t("board.count", { count: tickets.length })}>
          {tickets.length}
        </Typography>
      </Box>
      <Box
        role="list"
        aria-labelledby={headingId}
        sx={{ display: "flex", flexDirection: "column", gap: 1, p: 1, pt: 0, overflowY: "auto", minHeight: 80 }}
      >
        {tickets.map((ticket) => (
          <BoardCard
            key={ticket.id}
            ticket={ticket}
            column={column.key}
            columns={columns}
            busy={busyIds.has(ticket.id)}
            onOpen={onOpen}
            onMove={onMove}
          />
        ))}
        {tickets.length === 0 && (
          <Typography variant="caption" color="text.secondary" sx={{ p: 1, textAlign: "center" }}>
            {t("board.emptyColumn")}
          </Typography>
        )}
      </Box>
    </Paper>
  );
}
