import AddIcon from "@mui/icons-material/Add";
import CheckBoxIcon from "@mui/icons-material/CheckBox";
import InboxIcon from "@mui/icons-material/MoveToInbox";
import SearchIcon from "@mui/icons-material/Search";
import ViewKanbanOutlined from "@mui/icons-material/ViewKanbanOutlined";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import { can } from "@zapdesk/core";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { lazyNamed, OnDemand } from "../../../components/ui/on-demand";
import { useAuth } from "../../../lib/auth";
import { useDebounce } from "../../../lib/use-debounce";
import { MyCustomersToggle } from "../../contact-owner";
import { TagFilter } from "../../tags/components/tag-filter";
import { MIN_SEARCH_LENGTH } from "../api/lookups";
import type { TicketListParams } from "../api/ticket-keys";
import { useInboxRequests } from "../hooks/use-inbox-requests";
import { TicketQueueFilter } from "./ticket-queue-filter";
import { SearchTotal, TicketsList, useTicketCount } from "./tickets-list";
import { useWaitingOldestFirst, WaitingSortToggle } from "./waiting-sort-toggle";

const NewTicketModal = lazyNamed(() => import("./new-ticket-modal"), "NewTicketModal");

type MainTab = "open" | "closed" | "search";
const SEARCH_INPUT_ID = "tickets-search";

/** The list pane of spec §2: Inbox (Working on / Waiting), Resolved and Search. */
export function TicketsManager({ selectedId }: { selectedId?: number }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const canShowAll = can(user, "tickets-manager:showall");
  const [tab, setTab] = useState<MainTab>("open");
  const [inboxTab, setInboxTab] = useState<"open" | "pending">("open");
  const [pickedShowAll, setShowAll] = useState<boolean | null>(null);
  const showAll = pickedShowAll ?? canShowAll;
  // Until the user picks, the filter is all of their queues (and follows them if an admin changes them).
  // A user without queues has no filter; one who unticks every queue sees only their own tickets.
  const [pickedQueueIds, setQueueIds] = useState<number[] | null>(null);
  const ownQueueIds = useMemo(() => {
    const ids = user?.queues.map((q) => q.id) ?? [];
    return ids.length ? ids : null;
  }, [user]);
  const queueIds = ownQueueIds && (pickedQueueIds ?? ownQueueIds);
  const [searchText, setSearchText] = useState("");
  const [newTicketOpen, setNewTicketOpen] = useState(false);
  const search = useDebounce(searchText);
  const [oldestFirst, setOldestFirst] = useWaitingOldestFirst();
  // Issue 13: Accept shows Working on; the next ticket shows its list; `/` opens the search.
  useInboxRequests((request) => {
    if (request === "search") {
      setTab("search");
      requestAnimationFrame(() => document.getElementById(SEARCH_INPUT_ID)?.focus());
      return;
    }
    setTab("open");
    setInboxTab(request === "working" ? "open" : "pending");
  });

  const [tagIds, setTagIds] = useState<number[]>([]);
  const [myCustomers, setMyCustomers] = useState(false);
  const base = useMemo(
    () => ({ searchParam: "", showAll, queueIds, tagIds, ...(myCustomers ? { myCustomers } : {}) }),
    [showAll, queueIds, tagIds, myCustomers],
  );
  const openParams: TicketListParams = useMemo(() => ({ ...base, status: "open" }), [base]);
  const pendingParams: TicketListParams = useMemo(
    () => ({ ...base, status: "pending", ...(oldestFirst ? { sort: "oldest" as const } : {}) }),
    [base, oldestFirst],
  );
  const closedParams: TicketListParams = useMemo(() => ({ ...base, status: "closed" }), [base]);
  const searchParams: TicketListParams = useMemo(() => ({ ...base, searchParam: search }), [base, search]);
  const openCount = useTicketCount(openParams);
  const pendingCount = useTicketCount(pendingParams);

  const onSearch = (value: string) => {
    const lower = value.toLowerCase();
    setSearchText(lower);
    // Spec §2: clearing the search returns to the Inbox.
    if (!lower) setTab("open");
  };

  return (
    <Paper square variant="outlined" sx={{ display: "flex", flexDirection: "column", height: "100%", overflow: "hidden" }}>
      <Tabs value={tab} onChange={(_e, value: MainTab) => setTab(value)} variant="fullWidth" aria-label={t("tickets.title")}>
        <Tab value="open" icon={<InboxIcon />} label={t("tickets.tabs.open")} />
        <Tab value="closed" icon={<CheckBoxIcon />} label={t("tickets.tabs.closed")} />
        <Tab value="search" icon={<SearchIcon />} label={t("tickets.tabs.search")} />
      </Tabs>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, p: 1, flexWrap: "wrap", borderTop: 1, borderColor: "divider" }}>
        {tab === "search" ? (
          <TextField
            size="small"
            type="search"
            fullWidth
            autoFocus
            placeholder={t("tickets.search.placeholder")}
            value={searchText}
            onChange={(e) => onSearch(e.target.value)}
            slotProps={{ htmlInput: { id: SEARCH_INPUT_ID, "aria-label": t("tickets.search.placeholder") } }}
          />
        ) : (
          <>
            <Button variant="outlined" size="small" startIcon={<AddIcon />} onClick={() => setNewTicketOpen(true)}>
              {t("tickets.buttons.new")}
            </Button>
            {canShowAll && (
              <FormControlLabel
                label={t("tickets.buttons.showAll")}
                control={<Switch size="small" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />}
              />
            )}
          </>
        )}
        <Box sx={{ flex: 1 }} />
        {tab === "open" && inboxTab === "pending" && <WaitingSortToggle value={oldestFirst} onChange={setOldestFirst} />}
        <TicketQueueFilter queues={user?.queues ?? []} value={queueIds ?? []} onChange={setQueueIds} />
        <TagFilter value={tagIds} onChange={setTagIds} />
        <MyCustomersToggle value={myCustomers} onChange={setMyCustomers} />
        <Tooltip title={t("board.title")}>
          <IconButton size="small" component={RouterLink} to="/board" aria-label={t("board.title")}>
            <ViewKanbanOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
      {tab === "open" && (
        <Tabs
          value={inboxTab}
          onChange={(_e, value: "open" | "pending") => setInboxTab(value)}
          variant="fullWidth"
          aria-label={t("tickets.tabs.open")}
        >
          <Tab
            value="open"
            label={
              <Badge badgeContent={openCount} color="primary" max={9999} sx={{ px: 1.5 }}>
                {t("tickets.tabs.working")}
              </Badge>
            }
          />
          <Tab
            value="pending"
            label={
              <Badge badgeContent={pendingCount} color="secondary" max={9999} sx={{ px: 1.5 }}>
                {t("tickets.tabs.waiting")}
              </Badge>
            }
          />
        </Tabs>
      )}
      <TicketsList
        params={openParams}
        selectedId={selectedId}
        hidden={tab !== "open" || inboxTab !== "open"}
        label={t("tickets.tabs.working")}
      />
      <TicketsList
        params={pendingParams}
        selectedId={selectedId}
        hidden={tab !== "open" || inboxTab !== "pending"}
        label={t("tickets.tabs.waiting")}
      />
      {tab === "closed" && <TicketsList params={closedParams} selectedId={selectedId} label={t("tickets.tabs.closed")} />}
      {tab === "search" && <SearchTotal params={searchParams} enabled={search.length >= MIN_SEARCH_LENGTH} />}
      {tab === "search" && (
        <TicketsList
          params={searchParams}
          selectedId={selectedId}
          enabled={search.length >= MIN_SEARCH_LENGTH}
          label={t("tickets.tabs.search")}
        />
      )}
      <OnDemand when={newTicketOpen}>
        <NewTicketModal open={newTicketOpen} onClose={() => setNewTicketOpen(false)} />
      </OnDemand>
    </Paper>
  );
}
