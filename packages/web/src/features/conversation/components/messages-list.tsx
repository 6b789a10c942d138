import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Typography from "@mui/material/Typography";
import { observeElementRect, useVirtualizer } from "@tanstack/react-virtual";
import type { ConnectionProvider, Message } from "@zapdesk/core";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { capabilitiesOf } from "../../../lib/capabilities";
import { formatDay, isSameDay } from "../../../lib/format-time";
import { chronological, useMessages } from "../api/get-messages";
import { useDeleteMessage } from "../api/message-commands";
import { MessageBubble } from "./message-bubble";
import { NoteBubble } from "./note-bubble";

const LOAD_OLDER_WITHIN_PX = 50;
const LOAD_NEWER_WITHIN_PX = 80;
/** A one-line bubble with its gap: the first guess before a row is measured. */
const ESTIMATED_ROW_PX = 56;
const HIGHLIGHT_MS = 4000;
const INITIAL_RECT = { width: 600, height: 600 };

/** A pane not laid out yet (or without a layout engine) still shows its last rows, not none. */
const observeRect: typeof observeElementRect<HTMLDivElement> = (instance, callback) =>
  observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : INITIAL_RECT));

interface MessagesListProps {
  ticketId: number;
  isGroup: boolean;
  /** The ticket's kind of connection: what it cannot do is not offered (delete for everyone). */
  provider?: ConnectionProvider | null;
  /** Open on this message (a search result): its page is loaded, scrolled to and highlighted. */
  aroundMessageId?: number;
  onReply(message: Message): void;
}

/**
 * The conversation, virtualised (only the rows in view are in the DOM, so a 5,000-message chat
 * scrolls like a short one): day separators, older pages near the top without the view jumping,
 * newer pages near the bottom when opened on an older message, and the newest followed live.
 */
export function MessagesList({ ticketId, isGroup, provider, aroundMessageId, onReply }: MessagesListProps) {
  const { t } = useTranslation();
  const query = useMessages(ticketId, aroundMessageId);
  const remove = useDeleteMessage();
  const canDelete = capabilitiesOf(provider).deleteForEveryone;
  const messages = useMemo(() => chronological(query.data?.pages), [query.data]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ height: number; top: number; loadingOlder: boolean }>({ height: 0, top: 0, loadingOlder: false });
  const stickToBottom = useRef(!aroundMessageId);
  /** Set while the view is moved to the bottom by us, not the agent (see onScroll). */
  const pinning = useRef(false);
  const fetching = useRef(false);
  const [menu, setMenu] = useState<{ message: Message; anchor: HTMLElement } | null>(null);
  const [highlighted, setHighlighted] = useState<number | null>(null);

  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => messages[index].id,
    overscan: 6,
    initialRect: INITIAL_RECT,
    observeElementRect: observeRect,
    // A row not laid out (a hidden pane) measures 0: keep the estimate rather than collapse it.
    measureElement: (element) => element.getBoundingClientRect().height || ESTIMATED_ROW_PX,
  });

  /** Scrolls a loaded message into the middle of the view and highlights it for a few seconds. */
  const scrollToMessage = useCallback(
    (messageId: number) => {
      const index = messages.findIndex((m) => m.id === messageId);
      if (index < 0) return false;
      stickToBottom.current = false;
      virtualizer.scrollToIndex(index, { align: "center" });
      setHighlighted(messageId);
      return true;
    },
    [messages, virtualizer],
  );

  // Opened on a message: go to it once its page is in.
  const arrived = useRef(false);
  useLayoutEffect(() => {
    if (aroundMessageId && !arrived.current && scrollToMessage(aroundMessageId)) arrived.current = true;
  }, [aroundMessageId, scrollToMessage]);

  useEffect(() => {
    if (highlighted === null) return;
    const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  // After older messages were prepended, keep the same message under the eye; else follow the newest.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element || messages.length === 0) return;
    if (anchor.current.loadingOlder) {
      element.scrollTop = element.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current.loadingOlder = false;
    } else if (stickToBottom.current) {
      virtualizer.scrollToIndex(messages.length - 1, { align: "end" });
    }
  }, [messages, virtualizer]);

  // Rows grow after they are first laid out (a picture, a video, a sticker or a thumbnail loads):
  // while the agent follows the newest message, the view stays at the bottom (issue 20).
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element || !totalSize || !stickToBottom.current || anchor.current.loadingOlder) return;
    const bottom = element.scrollHeight - element.clientHeight;
    if (Math.abs(element.scrollTop - bottom) < 1) return;
    pinning.current = true;
    element.scrollTop = bottom;
  }, [totalSize]);

  // Scroll events come faster than renders: the ref, not the rendered state, says a page is on its way.
  const load = (fetchPage: () => Promise<unknown>) => {
    fetching.current = true;
    void fetchPage().finally(() => {
      fetching.current = false;
    });
  };

  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    const fromBottom = element.scrollHeight - element.scrollTop - element.clientHeight;
    // Our own move to the bottom is no reading position; content growing under it must not unstick it.
    if (pinning.current) {
      pinning.current = false;
      if (fromBottom >= 80) return;
    }
    stickToBottom.current = fromBottom < 80 && !query.hasPreviousPage;
    if (fetching.current) return;
    if (fromBottom < LOAD_NEWER_WITHIN_PX && query.hasPreviousPage) {
      load(() => query.fetchPreviousPage({ cancelRefetch: false }));
    } else if (element.scrollTop < LOAD_OLDER_WITHIN_PX && query.hasNextPage) {
      anchor.current = { height: element.scrollHeight, top: element.scrollTop, loadingOlder: true };
      load(() => query.fetchNextPage({ cancelRefetch: false }));
    }
  };

  const onMenu = useCallback((message: Message, element: HTMLElement) => setMenu({ message, anchor: element }), []);

  return (
    <Box sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", bgcolor: "chat.background" }}>
      <Box
        ref={scrollRef}
        onScroll={onScroll}
        role="log"
        aria-label={t("conversation.messages")}
        sx={{ flex: 1, overflowY: "auto", px: 2, py: 1, overflowAnchor: "none" }}
      >
        {query.isFetchingNextPage && (
          <CircularProgress size={20} sx={{ display: "block", mx: "auto" }} aria-label={t("common.loading")} />
        )}
        {query.isLoading && <CircularProgress sx={{ display: "block", mx: "auto" }} aria-label={t("common.loading")} />}
        {!query.isLoading && messages.length === 0 && (
          <Typography sx={{ textAlign: "center", color: "text.secondary" }}>{t("conversation.empty")}</Typography>
        )}
        <Box sx={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const message = messages[item.index];
            const date = new Date(message.createdAt);
            const previous = messages[item.index - 1];
            const newDay = !previous || !isSameDay(new Date(previous.createdAt), date);
            const isHighlighted = highlighted === message.id;
            return (
              <Box
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                aria-current={isHighlighted ? "true" : undefined}
                className={isHighlighted ? "message-highlighted" : undefined}
                sx={{
                  position: "absolute",
                  top: 0,
                  left: 0,
                  right: 0,
                  display: "flex",
                  flexDirection: "column",
                  py: 0.375,
                  borderRadius: 1,
                  transition: "background-color 0.6s",
                  "&.message-highlighted": { bgcolor: "chat.highlight" },
                }}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {newDay && (
                  <Chip label={formatDay(date)} size="small" sx={{ alignSelf: "center", my: 1 }} data-testid="day-separator" />
                )}
                {message.isNote ? (
                  <NoteBubble message={message} />
                ) : (
                  <MessageBubble message={message} isGroup={isGroup} onMenu={onMenu} />
                )}
              </Box>
            );
          })}
        </Box>
        {query.isFetchingPreviousPage && (
          <CircularProgress size={20} sx={{ display: "block", mx: "auto" }} aria-label={t("common.loading")} />
        )}
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
