import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useInfiniteScroll } from "../../../components/ui/use-infinite-scroll";
import { useAuth } from "../../../lib/auth";
import { CHOOSING_HEADER_HEIGHT, ChoosingHeader, useChoosingGroup } from "../../routing/choosing-group";
import { useTickets } from "../api/get-tickets";
import type { TicketListParams } from "../api/ticket-keys";
import { ticketChanges, useUpdateTicket } from "../api/update-ticket";
import { TicketRow } from "./ticket-row";

export const ROW_HEIGHT = 84;

interface TicketsListProps {
  params: TicketListParams;
  selectedId?: number;
  enabled?: boolean;
  hidden?: boolean;
  label: string;
}

/** A virtualised list: only the rows in view are in the DOM, so 10k tickets scroll like 10. */
export function TicketsList({ params, selectedId, enabled = true, hidden, label }: TicketsListProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  // No request before the session is known: the defaults (All, the queues) depend on who is asking.
  const query = useTickets(params, enabled && !!user);
  const update = useUpdateTicket();
  const tickets = useMemo(() => query.data?.pages.flatMap((p) => p.tickets) ?? [], [query.data]);
  // Issue 13: the Waiting list keeps the tickets at the greeting menu apart (features/routing).
  const group = useChoosingGroup(tickets, params.status === "pending" && !params.searchParam);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: group.items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => (group.items[index]?.kind === "choosingHeader" ? CHOOSING_HEADER_HEIGHT : ROW_HEIGHT),
    overscan: 8,
    initialRect: { width: 360, height: 600 },
  });
  const onScroll = useInfiniteScroll({
    hasNextPage: !!query.hasNextPage,
    isFetching: query.isFetchingNextPage,
    fetchNextPage: query.fetchNextPage,
  });
  // A search result opens the chat on the message that matched (the messages list scrolls to it).
  const onOpen = useCallback(
    (id: number, messageId?: number | null) => navigate(messageId ? `/tickets/${id}?message=${messageId}` : `/tickets/${id}`),
    [navigate],
  );
  const { mutate } = update;
  const onAccept = useCallback(
    (id: number) => {
      if (user) mutate({ id, change: ticketChanges.accept(user.id) });
    },
    [mutate, user],
  );

  return (
    <Box
      ref={scrollRef}
      onScroll={onScroll}
      role="list"
      aria-label={label}
      data-ticket-list={hidden ? undefined : "active"}
      aria-busy={query.isFetching}
      sx={{ flex: 1, minHeight: 0, overflowY: "auto", display: hidden ? "none" : "block", position: "relative" }}
    >
      {query.isLoading && enabled ? (
        <Box sx={{ display: "grid", placeItems: "center", p: 2 }}>
          <CircularProgress size={24} aria-label={t("common.loading")} />
        </Box>
      ) : tickets.length === 0 ? (
        <Box sx={{ p: 3, textAlign: "center" }}>
          <Typography variant="h6" color="text.secondary">
            {t("tickets.empty.title")}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("tickets.empty.message")}
          </Typography>
        </Box>
      ) : (
        <Box sx={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const entry = group.items[item.index];
            if (entry.kind === "choosingHeader")
              return (
                <Box
                  key="choosing-header"
                  sx={{ position: "absolute", top: 0, left: 0, right: 0, height: CHOOSING_HEADER_HEIGHT }}
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  <ChoosingHeader count={entry.count} expanded={group.expanded} onToggle={group.toggle} />
                </Box>
              );
            const { ticket } = entry;
            return (
              <Box
                key={ticket.id}
                role="listitem"
                aria-label={ticket.contact.name}
                sx={{ position: "absolute", top: 0, left: 0, right: 0, height: ROW_HEIGHT }}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <TicketRow
                  ticket={ticket}
                  selected={ticket.id === selectedId}
                  onOpen={onOpen}
                  onAccept={onAccept}
                  accepting={update.isPending && update.variables?.id === ticket.id}
                />
              </Box>
            );
          })}
        </Box>
      )}
      {query.isFetchingNextPage && (
        <Box sx={{ display: "grid", placeItems: "center", p: 1 }}>
          <CircularProgress size={20} aria-label={t("common.loading")} />
        </Box>
      )}
    </Box>
  );
}

/** The total of a list (the first page's `count`), for the sub-tab badges. */
export function useTicketCount(params: TicketListParams, enabled = true): number {
  const { user } = useAuth();
  const query = useTickets(params, enabled && !!user);
  return query.data?.pages[0]?.count ?? 0;
}

/**
 * Issue 24: a search's total, from the first page (the list's own query, no second request). The
 * server stops counting at a cap; `countCapped` then says there are more: "1.000+ tickets".
 */
export function SearchTotal({ params, enabled }: { params: TicketListParams; enabled: boolean }) {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const first = useTickets(params, enabled && !!user).data?.pages[0];
  if (!enabled || !first) return null;
  const n = first.count.toLocaleString(i18n.language);
  return (
    <Typography variant="caption" color="text.secondary" role="status" sx={{ px: 2, py: 0.5 }}>
      {first.countCapped ? t("tickets.search.countCapped", { n }) : t("tickets.search.count", { count: first.count, n })}
    </Typography>
  );
}
