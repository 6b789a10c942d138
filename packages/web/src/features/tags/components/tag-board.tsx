import Box from "@mui/material/Box";
import { type BoardColumn as ColumnKey, moveTags, NO_TAG_COLUMN, type Tag, type Ticket } from "@zapdesk/core";
import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ColumnInfo } from "./board-card";
import { BoardColumn } from "./board-column";

interface TagBoardProps {
  tickets: Ticket[];
  tags: Tag[];
  onOpen(ticketId: number): void;
  /** Save a ticket's new set of tags (resolves when the server has it). */
  onSetTags(ticketId: number, tagIds: number[]): Promise<unknown>;
}

/**
 * The kanban of issue 11: a column per tag plus "no tag". A ticket with several tags shows in each
 * of their columns. Moving a card (drag, or its "move to" menu) applies `moveTags`: the source
 * column's tag is replaced by the target's.
 */
export function TagBoard({ tickets, tags, onOpen, onSetTags }: TagBoardProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());
  const columns: ColumnInfo[] = useMemo(
    () => [
      { key: NO_TAG_COLUMN, title: t("board.noTag"), tag: null },
      ...tags.map((tag) => ({ key: tag.id, title: tag.name, tag })),
    ],
    [tags, t],
  );
  const byColumn = useMemo(() => {
    const map = new Map<ColumnKey, Ticket[]>(columns.map((c) => [c.key, []]));
    for (const ticket of tickets) {
      if (ticket.tags.length === 0) map.get(NO_TAG_COLUMN)?.push(ticket);
      for (const tag of ticket.tags) map.get(tag.id)?.push(ticket);
    }
    return map;
  }, [columns, tickets]);
  const index = useMemo(() => new Map(tickets.map((ticket) => [ticket.id, ticket])), [tickets]);
  const find = useCallback((id: number) => index.get(id), [index]);

  const onMove = useCallback(
    (ticket: Ticket, from: ColumnKey, to: ColumnKey) => {
      const next = moveTags(
        ticket.tags.map((tag) => tag.id),
        from,
        to,
      );
      setBusy((old) => new Set(old).add(ticket.id));
      void onSetTags(ticket.id, next)
        .catch(() => undefined)
        .finally(() =>
          setBusy((old) => {
            const rest = new Set(old);
            rest.delete(ticket.id);
            return rest;
          }),
        );
    },
    [onSetTags],
  );

  return (
    <Box sx={{ display: "flex", gap: 1.5, overflowX: "auto", alignItems: "stretch", height: "100%", p: 1 }}>
      {columns.map((column) => (
        <BoardColumn
          key={String(column.key)}
          column={column}
          columns={columns}
          tickets={byColumn.get(column.key) ?? []}
          busyIds={busy}
          onOpen={onOpen}
          onMove={onMove}
          find={find}
        />
      ))}
    </Box>
  );
}
