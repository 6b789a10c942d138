import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Typography from "@mui/material/Typography";
import type { ConnectionProvider, Message } from "@zapdesk/core";
import { Fragment, useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { capabilitiesOf } from "../../../lib/capabilities";
import { formatDay, isSameDay } from "../../../lib/format-time";
import { chronological, useMessages } from "../api/get-messages";
import { useDeleteMessage } from "../api/message-commands";
import { downloadCsv, messagesToCsv } from "../utils/export-csv";
import { MessageBubble } from "./message-bubble";

const LOAD_OLDER_WITHIN_PX = 50;

interface MessagesListProps {
  ticketId: number;
  isGroup: boolean;
  /** The ticket's kind of connection: what it cannot do is not offered (delete for everyone). */
  provider?: ConnectionProvider | null;
  onReply(message: Message): void;
}

/** The conversation: day separators, older pages near the top without the view jumping. */
export function MessagesList({ ticketId, isGroup, provider, onReply }: MessagesListProps) {
  const { t } = useTranslation();
  const query = useMessages(ticketId);
  const remove = useDeleteMessage();
  const canDelete = capabilitiesOf(provider).deleteForEveryone;
  const messages = useMemo(() => chronological(query.data?.pages), [query.data]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ height: number; top: number; loadingOlder: boolean }>({ height: 0, top: 0, loadingOlder: false });
  const stickToBottom = useRef(true);
  const fetchingOlder = useRef(false);
  const [menu, setMenu] = useState<{ message: Message; anchor: HTMLElement } | null>(null);

  // After older messages were prepended, keep the same message under the eye; else follow the newest.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element || messages.length === 0) return;
    if (anchor.current.loadingOlder) {
      element.scrollTop = element.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current.loadingOlder = false;
    } else if (stickToBottom.current) {
      element.scrollTop = element.scrollHeight;
    }
  }, [messages]);

  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    stickToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
    // Scroll events come faster than renders: the ref, not the rendered state, says a page is on its way.
    if (element.scrollTop < LOAD_OLDER_WITHIN_PX && query.hasNextPage && !fetchingOlder.current) {
      fetchingOlder.current = true;
      anchor.current = { height: element.scrollHeight, top: element.scrollTop, loadingOlder: true };
      void query.fetchNextPage({ cancelRefetch: false }).finally(() => {
        fetchingOlder.current = false;
      });
    }
  };

  const onMenu = useCallback((message: Message, element: HTMLElement) => setMenu({ message, anchor: element }), []);

  const exportCsv = () => downloadCsv(`conversa-${ticketId}.csv`, messagesToCsv(messages));

  return (
    <Box sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", bgcolor: "#eee" }}>
      <Box sx={{ display: "flex", justifyContent: "flex-end", px: 1, py: 0.5 }}>
        <Button size="small" variant="contained" onClick={exportCsv} disabled={messages.length === 0}>
          {t("conversation.export")}
        </Button>
      </Box>
      <Box
        ref={scrollRef}
        onScroll={onScroll}
        role="log"
        aria-label={t("conversation.messages")}
        sx={{ flex: 1, overflowY: "auto", display: "flex", flexDirection: "column", gap: 0.75, p: 2 }}
      >
        {query.isFetchingNextPage && <CircularProgress size={20} sx={{ alignSelf: "center" }} aria-label={t("common.loading")} />}
        {query.isLoading && <CircularProgress sx={{ alignSelf: "center" }} aria-label={t("common.loading")} />}
        {!query.isLoading && messages.length === 0 && (
          <Typography sx={{ alignSelf: "center", color: "text.secondary" }}>{t("conversation.empty")}</Typography>
        )}
        {messages.map((message, index) => {
          const date = new Date(message.createdAt);
          const previous = messages[index - 1];
          const newDay = !previous || !isSameDay(new Date(previous.createdAt), date);
          return (
            <Fragment key={message.id}>
              {newDay && (
                <Chip label={formatDay(date)} size="small" sx={{ alignSelf: "center", my: 1 }} data-testid="day-separator" />
              )}
              <MessageBubble message={message} isGroup={isGroup} onMenu={onMenu} />
            </Fragment>
          );
        })}
      </Box>
      <Menu anchorEl={menu?.anchor} open={!!menu} onClose={() => setMenu(null)}>
        <MenuItem
          onClick={() => {
            if (menu) onReply(menu.message);
            setMenu(null);
          }}
        >
          {t("conversation.menu.reply")}
        </MenuItem>
        {canDelete && menu?.message.fromMe && (
          <MenuItem
            disabled={menu.message.isDeleted}
            onClick={() => {
              remove.mutate(menu.message.id);
              setMenu(null);
            }}
          >
            {t("conversation.menu.delete")}
          </MenuItem>
        )}
      </Menu>
    </Box>
  );
}
