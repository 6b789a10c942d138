import DeleteOutlineIcon from "@mui/icons-material/DeleteOutlined";
import LockIcon from "@mui/icons-material/Lock";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import { isAdmin, type Message } from "@zapdesk/core";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth";
import { formatHourMinute } from "../../../lib/format-time";
import { useDeleteMessage } from "../api/message-commands";
import { splitMentions } from "../utils/mentions";

/** Palette paths (see lib/palette.ts): amber in light and dark. */
export const NOTE_COLORS = {
  background: "note.background",
  border: "note.border",
  label: "note.label",
  text: "note.text",
  input: "note.input",
} as const;

/** A private note in the message list (issue 11): amber, with a lock, its author and time; never a customer bubble. */
export const NoteBubble = memo(function NoteBubble({ message }: { message: Message }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const remove = useDeleteMessage();
  const canDelete = !message.isDeleted && !!user && (message.user?.id === user.id || isAdmin(user));
  return (
    <Box
      data-message-id={message.id}
      data-testid="note-bubble"
      role="article"
      aria-label={t("notes.bubbleLabel", { name: message.user?.name ?? t("notes.unknownAuthor") })}
      sx={{
        alignSelf: "flex-end",
        maxWidth: "75%",
        minWidth: 160,
        bgcolor: NOTE_COLORS.background,
        color: NOTE_COLORS.text,
        border: 1,
        borderStyle: "dashed",
        borderColor: NOTE_COLORS.border,
        borderRadius: 2,
        px: 1,
        pt: 0.5,
        pb: 0.25,
        position: "relative",
        "&:hover .note-delete, &:focus-within .note-delete": { opacity: 1 },
        "@media (hover: none)": { "& .note-delete": { opacity: 0.6 } },
      }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, color: NOTE_COLORS.label, pr: canDelete ? 3 : 0 }}>
        <LockIcon sx={{ fontSize: 14 }} />
        <Typography variant="caption" sx={{ fontWeight: 600 }}>
          {t("notes.label")}
        </Typography>
        <Typography variant="caption">· {message.user?.name ?? t("notes.unknownAuthor")}</Typography>
      </Box>
      {canDelete && (
        <IconButton
          className="note-delete"
          size="small"
          aria-label={t("notes.delete")}
          onClick={() => window.confirm(t("notes.deleteConfirm")) && remove.mutate(message.id)}
          sx={{ position: "absolute", top: 0, right: 0, opacity: 0, transition: "opacity 0.15s" }}
        >
          <DeleteOutlineIcon fontSize="small" />
        </IconButton>
      )}
      <Typography variant="body2" component="div" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
        {message.isDeleted ? (
          <Box component="span" sx={{ fontStyle: "italic", color: "text.secondary" }}>
            {t("notes.deleted")}
          </Box>
        ) : (
          splitMentions(
            message.body,
            (message.mentions ?? []).map((m) => m.name),
          ).map((part) =>
            part.mention ? (
              <Box key={part.start} component="span" data-testid="note-mention" sx={{ fontWeight: 600, color: "note.mention" }}>
                {part.text}
              </Box>
            ) : (
              <span key={part.start}>{part.text}</span>
            ),
          )
        )}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ textAlign: "right" }}>
        {formatHourMinute(new Date(message.createdAt))}
      </Typography>
    </Box>
  );
});
