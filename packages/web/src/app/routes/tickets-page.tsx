import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import useMediaQuery from "@mui/material/useMediaQuery";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { lazyNamed } from "../../components/ui/on-demand";
import { EmptyTicketPane, TicketsManager } from "../../features/tickets";

// The conversation (messages, composer, contact drawer) loads when a ticket is opened: the list paints without it.
const TicketPane = lazyNamed(() => import("./ticket-pane"), "TicketPane");

function PaneLoading() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "grid", placeItems: "center", height: "100%" }}>
      <CircularProgress aria-label={t("common.loading")} />
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
          {id ? (
            <Suspense fallback={<PaneLoading />}>
              <TicketPane key={id} ticketId={id} narrow={!wide} roomy={roomy} />
            </Suspense>
          ) : (
            <EmptyTicketPane />
          )}
        </Paper>
      )}
    </Box>
  );
}
