import LockIcon from "@mui/icons-material/Lock";
import Avatar from "@mui/material/Avatar";
import List from "@mui/material/List";
import ListItemAvatar from "@mui/material/ListItemAvatar";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import ListSubheader from "@mui/material/ListSubheader";
import type { NoteMention } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

/** The link that opens a ticket at one of its messages (the chat scrolls to it and highlights it). */
export const mentionLink = (mention: Pick<NoteMention, "ticketId" | "messageId">) =>
  `/tickets/${mention.ticketId}?message=${mention.messageId}`;

/** Issue 11: unread mentions in notes, above the unread tickets in the bell. */
export function MentionItems({ mentions, onOpen }: { mentions: NoteMention[]; onOpen(mention: NoteMention): void }) {
  const { t } = useTranslation();
  if (mentions.length === 0) return null;
  return (
    <List dense aria-label={t("notes.mentionsTitle")} subheader={<ListSubheader>{t("notes.mentionsTitle")}</ListSubheader>}>
      {mentions.map((mention) => (
        <ListItemButton key={mention.id} onClick={() => onOpen(mention)} data-testid="mention-item">
          <ListItemAvatar>
            <Avatar sx={{ bgcolor: "note.border" }}>
              <LockIcon fontSize="small" />
            </Avatar>
          </ListItemAvatar>
          <ListItemText
            primary={t("notes.mentionedYou", {
              name: mention.author?.name ?? t("notes.unknownAuthor"),
              contact: mention.contact.name,
            })}
            secondary={mention.body}
            slotProps={{ secondary: { noWrap: true } }}
          />
        </ListItemButton>
      ))}
    </List>
  );
}
