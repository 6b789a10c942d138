import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import { can } from "@zapdesk/core";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { useAuth } from "../../../lib/auth";
import { MyCustomersToggle } from "../../contact-owner";
import { useTickets } from "../../tickets/api/get-tickets";
import type { TicketListParams } from "../../tickets/api/ticket-keys";
import { useSetTicketTags, useTags } from "../api/tags-api";
import { TagBoard } from "../components/tag-board";

/** The board loads the open tickets page by page up to this many (then a button loads more). */
const AUTO_LOAD = 400;

/**
 * /board: the open tickets the user sees in the Working tab (an admin: everyone's), in columns by tag.
 * It reads the same cached list the realtime events keep current.
 */
export default function BoardPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();
  const [myCustomers, setMyCustomers] = useState(false);
  const params: TicketListParams = useMemo(
    () => ({
      status: "open",
      searchParam: "",
      showAll: can(user, "tickets-manager:showall"),
      queueIds: null,
      ...(myCustomers ? { myCustomers } : {}),
    }),
    [user, myCustomers],
  );
  const query = useTickets(params, !!user);
  const { data: tags = [], isLoading: tagsLoading } = useTags();
  const setTags = useSetTicketTags();
  const tickets = useMemo(() => query.data?.pages.flatMap((p) => p.tickets) ?? [], [query.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && tickets.length < AUTO_LOAD) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, tickets.length]);

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 2, py: 1 }}>
        <Button component={RouterLink} to="/tickets" startIcon={<ArrowBackIcon />} size="small">
          {t("board.back")}
        </Button>
        <Typography component="h1" variant="h6" sx={{ flex: 1 }}>
          {t("board.title")}
        </Typography>
        <MyCustomersToggle value={myCustomers} onChange={setMyCustomers} />
        <Typography variant="body2" color="text.secondary">
          {t("board.total", { count: query.data?.pages[0]?.count ?? 0 })}
        </Typography>
        {hasNextPage && tickets.length >= AUTO_LOAD && (
          <Button size="small" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            {t("board.loadMore")}
          </Button>
        )}
      </Box>
      {query.isLoading || tagsLoading ? (
        <Box sx={{ display: "grid", placeItems: "center", flex: 1 }}>
          <CircularProgress aria-label={t("common.loading")} />
        </Box>
      ) : (
        <Box sx={{ flex: 1, minHeight: 0 }}>
          <TagBoard
            tickets={tickets}
            tags={tags}
            onOpen={(id) => navigate(`/tickets/${id}`)}
            onSetTags={(ticketId, tagIds) => setTags.mutateAsync({ ticketId, tagIds })}
          />
        </Box>
      )}
    </Box>
  );
}
