import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { type Message, OUTBOX_NOTICES } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useRetryMessage } from "../api/retry-message";

/** Whether a sent message carries a notice of the outbox: held by a restriction, or never confirmed. */
export const hasOutboxNotice = (message: Message) =>
  message.fromMe &&
  message.ack === 0 &&
  (message.error?.code === OUTBOX_NOTICES.held || message.error?.code === OUTBOX_NOTICES.outcomeUnknown);

/**
 * Where an unsent or unconfirmed message stands: held while WhatsApp restricts new chats (it goes
 * by itself later), or sent without WhatsApp's answer (it may have arrived: the agent may send it
 * again). The server's own wording is kept as the tooltip.
 */
export function OutboxNotice({ message }: { message: Message }) {
  const { t } = useTranslation();
  const retry = useRetryMessage();
  const unknown = message.error?.code === OUTBOX_NOTICES.outcomeUnknown;
  return (
    <Box
      role="status"
      title={message.error?.title}
      sx={{ display: "flex", alignItems: "center", gap: 1, mt: 0.5, flexWrap: "wrap", color: "warning.dark" }}
    >
      <Typography variant="caption" sx={{ flex: 1, minWidth: 120 }}>
        {unknown ? t("conversation.outbox.unknown") : t("conversation.outbox.held")}
      </Typography>
      {unknown && (
        <Button
          size="small"
          color="warning"
          variant="outlined"
          onClick={() => retry.mutate(message.id)}
          disabled={retry.isPending}
          sx={{ py: 0 }}
        >
          {t("conversation.outbox.resend")}
        </Button>
      )}
    </Box>
  );
}
