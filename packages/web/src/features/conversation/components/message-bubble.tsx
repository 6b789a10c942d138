import BlockIcon from "@mui/icons-material/Block";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import HelpOutlineIcon from "@mui/icons-material/HelpOutlineOutlined";
import HourglassEmptyIcon from "@mui/icons-material/HourglassEmpty";
import SyncProblemIcon from "@mui/icons-material/SyncProblem";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import { ACK_FAILED, type Message, PLACEHOLDER_WAIT_MS } from "@zapdesk/core";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { formatHourMinute } from "../../../lib/format-time";
import { messagePreview } from "../../tickets/utils/ticket-preview";
import { AckIcon } from "./ack-icon";
import { FailedNotice } from "./failed-notice";
import { FormattedText } from "./formatted-text";
import { MessageMedia } from "./message-media";
import { hasOutboxNotice, OutboxNotice } from "./outbox-notice";
import { ReactionsBar } from "./reactions-bar";
import { LocationBody, VCardBody } from "./special-bodies";

function QuotedMessage({ quoted }: { quoted: NonNullable<Message["quotedMsg"]> }) {
  const { t } = useTranslation();
  return (
    <Box
      data-testid="quoted-message"
      sx={{
        borderLeft: 4,
        borderColor: quoted.fromMe ? "primary.main" : "secondary.main",
        bgcolor: "action.hover",
        p: 0.75,
        mb: 0.5,
        borderRadius: 1,
      }}
    >
      {!quoted.fromMe && quoted.contact && (
        <Typography variant="caption" color="secondary" component="p">
          {quoted.contact.name}
        </Typography>
      )}
      <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
        {quoted.isDeleted ? t("conversation.message.deleted") : <FormattedText text={messagePreview(quoted, t)} />}
      </Typography>
    </Box>
  );
}

function Body({ message }: { message: Message }) {
  const { t } = useTranslation();
  if (message.isDeleted) {
    return (
      <Typography
        variant="body2"
        sx={{ fontStyle: "italic", color: "text.secondary", display: "flex", gap: 0.5, alignItems: "center" }}
      >
        <BlockIcon fontSize="inherit" /> {t("conversation.message.deleted")}
      </Typography>
    );
  }
  if (message.mediaType === "placeholder") {
    // WhatsApp could not decrypt it here and asked for it again; after a while, say it may never come.
    const late = Date.now() - new Date(message.createdAt).getTime() > PLACEHOLDER_WAIT_MS;
    const Icon = late ? SyncProblemIcon : HourglassEmptyIcon;
    return (
      <Typography
        variant="body2"
        data-testid="message-placeholder"
        sx={{ fontStyle: "italic", color: "text.secondary", display: "flex", gap: 0.5, alignItems: "center" }}
      >
        <Icon fontSize="inherit" />
        {t(late ? "conversation.message.placeholderLate" : "conversation.message.placeholder")}
      </Typography>
    );
  }
  if (message.mediaType === "unsupported") {
    // The customer wrote something Zapdesk cannot show (a poll, an order…): say so, with WhatsApp's type.
    return (
      <Typography
        variant="body2"
        sx={{ fontStyle: "italic", color: "text.secondary", display: "flex", gap: 0.5, alignItems: "center" }}
      >
        <HelpOutlineIcon fontSize="inherit" />
        {t("conversation.message.unsupported", { type: message.body || "?" })}
      </Typography>
    );
  }
  if (message.mediaType === "location") return <LocationBody body={message.body} />;
  if (message.mediaType === "vcard") return <VCardBody body={message.body} />;
  const caption = message.mediaUrl && message.body === message.mediaName ? "" : message.body;
  return (
    <>
      {message.mediaUrl || message.mediaError ? <MessageMedia message={message} /> : null}
      {caption && (
        <Typography variant="body2" component="div" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
          <FormattedText text={caption} />
        </Typography>
      )}
    </>
  );
}

interface MessageBubbleProps {
  message: Message;
  isGroup: boolean;
  onMenu(message: Message, anchor: HTMLElement): void;
}

export const MessageBubble = memo(function MessageBubble({ message, isGroup, onMenu }: MessageBubbleProps) {
  const { t } = useTranslation();
  const mine = message.fromMe;
  const failed = mine && message.ack === ACK_FAILED;
  return (
    <Box
      data-message-id={message.id}
      role="article"
      aria-label={mine ? t("conversation.message.sent") : t("conversation.message.received")}
      sx={{
        alignSelf: mine ? "flex-end" : "flex-start",
        maxWidth: "75%",
        minWidth: 100,
        bgcolor: mine ? "bubble.mine" : "bubble.theirs",
        color: "bubble.text",
        borderRadius: 2,
        boxShadow: 1,
        px: 1,
        pt: 0.5,
        pb: 0.25,
        position: "relative",
        border: failed ? 1 : 0,
        borderColor: "error.main",
        // Issue 13: the actions show on hover or keyboard focus, and always where there is no hover (touch).
        "&:hover .message-menu, &:focus-within .message-menu": { opacity: 1 },
        "@media (hover: none)": { "& .message-menu": { opacity: 0.6 } },
      }}
    >
      <IconButton
        className="message-menu"
        size="small"
        aria-label={t("conversation.message.options")}
        onClick={(e) => onMenu(message, e.currentTarget)}
        sx={{ position: "absolute", top: 0, right: 0, opacity: 0, bgcolor: "inherit", transition: "opacity 0.15s" }}
      >
        <ExpandMoreIcon fontSize="small" />
      </IconButton>
      {isGroup && !mine && message.contact && (
        <Typography variant="caption" color="secondary" component="p" sx={{ fontWeight: 500 }}>
          {message.contact.name}
        </Typography>
      )}
      {message.quotedMsg && <QuotedMessage quoted={message.quotedMsg} />}
      <Box sx={{ pr: 3 }}>
        <Body message={message} />
      </Box>
      <Box sx={{ display: "flex", justifyContent: "flex-end", alignItems: "center", gap: 0.5 }}>
        {mine && message.fromBot && (
          // Issue 23: which automation sent it — a queue's bot, the menu, a rule, or Zapdesk itself.
          <Typography variant="caption" color="secondary" sx={{ fontWeight: 500 }} data-testid="automation">
            {t(`conversation.message.automation.${message.automation ?? "system"}`)}
          </Typography>
        )}
        {message.isEdited && (
          <Typography variant="caption" color="text.secondary">
            {t("conversation.message.edited")}
          </Typography>
        )}
        <Typography variant="caption" color="text.secondary">
          {formatHourMinute(new Date(message.createdAt))}
        </Typography>
        {mine && <AckIcon ack={message.ack} />}
      </Box>
      {failed && <FailedNotice message={message} />}
      {hasOutboxNotice(message) && <OutboxNotice message={message} />}
      <ReactionsBar reactions={message.reactions ?? []} mine={mine} />
    </Box>
  );
});
