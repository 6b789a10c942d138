import NotificationsIcon from "@mui/icons-material/Notifications";
import Avatar from "@mui/material/Avatar";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItemAvatar from "@mui/material/ListItemAvatar";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Popover from "@mui/material/Popover";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { pictureOf } from "../../../lib/capabilities";
import { ticketPreview } from "../../tickets/utils/ticket-preview";
import { useMarkMentionRead, useMentions } from "../api/get-mentions";
import { useUnreadTickets } from "../api/get-unread-tickets";
import { notificationsSupported } from "../utils/alert";
import { MentionItems, mentionLink } from "./mention-items";

/** Spec §2: the bell with the unread-ticket count and a list at most 350 px high. */
export function NotificationsBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useUnreadTickets();
  const tickets = data?.tickets ?? [];
  const ticketCount = data?.count ?? 0;
  // Issue 11: unread mentions in private notes count and show too.
  const mentions = useMentions().data;
  const unreadMentions = (mentions?.mentions ?? []).filter((m) => !m.read);
  const mentionCount = mentions?.unreadCount ?? 0;
  const count = ticketCount + mentionCount;
  const markRead = useMarkMentionRead();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [permission, setPermission] = useState(() => (notificationsSupported() ? Notification.permission : "denied"));

  // Asked from a click in the list, never on page load (browsers and people dislike unprompted requests).
  const askPermission = async () => setPermission(await Notification.requestPermission());

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={
          mentionCount
            ? `${t("notifications.bell", { count: ticketCount })}, ${t("notes.bellMentions", { count: mentionCount })}`
            : t("notifications.bell", { count: ticketCount })
        }
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <Badge badgeContent={count} color="secondary" data-testid="notifications-count">
          <NotificationsIcon />
        </Badge>
      </IconButton>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <Box sx={{ width: 340, maxHeight: 350, overflowY: "auto" }} aria-label={t("notifications.title")} role="region">
          {permission === "default" && (
            <Box sx={{ p: 1.5, display: "flex", flexDirection: "column", gap: 1, bgcolor: "action.hover" }}>
              <Typography variant="body2">{t("notifications.permission.text")}</Typography>
              <Button size="small" variant="outlined" onClick={askPermission} sx={{ alignSelf: "flex-start" }}>
                {t("notifications.permission.enable")}
              </Button>
            </Box>
          )}
          <MentionItems
            mentions={unreadMentions}
            onOpen={(mention) => {
              setAnchor(null);
              markRead.mutate(mention.id);
              navigate(mentionLink(mention));
            }}
          />
          {tickets.length === 0 && unreadMentions.length === 0 ? (
            <Typography sx={{ p: 2 }} color="text.secondary">
              {t("notifications.empty")}
            </Typography>
          ) : (
            <List dense>
              {tickets.map((ticket) => (
                <ListItemButton
                  key={ticket.id}
                  onClick={() => {
                    setAnchor(null);
                    navigate(`/tickets/${ticket.id}`);
                  }}
                >
                  <ListItemAvatar>
                    <Badge badgeContent={ticket.unreadMessages} color="success">
                      <Avatar src={pictureOf(ticket.contact, ticket.whatsapp?.provider)} alt={ticket.contact.name} />
                    </Badge>
                  </ListItemAvatar>
                  <ListItemText
                    primary={ticket.contact.name}
                    secondary={ticketPreview(ticket.lastMessage, t)}
                    slotProps={{ secondary: { noWrap: true } }}
                  />
                </ListItemButton>
              ))}
            </List>
          )}
        </Box>
      </Popover>
    </>
  );
}
