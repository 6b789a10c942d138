import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import type { Message } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useRetryMessage } from "../api/retry-message";

/** A message WhatsApp refused: why, in the provider's words, and a way to send it again. */
export function FailedNotice({ message }: { message: Message }) {
  const { t } = useTranslation();
  const retry = useRetryMessage();
  const reason = message.error?.title || t("conversation.failed.unknown");
  return (
    <Box role="alert" sx={{ display: "flex", alignItems: "center", gap: 1, mt: 0.5, flexWrap: "wrap", color: "error.main" }}>
      <Typography variant="caption" sx={{ flex: 1, minWidth: 120 }}>
        {message.error?.code
          ? t("conversation.failed.reasonWithCode", { reason, code: message.error.code })
          : t("conversation.failed.reason", { reason })}
      </Typography>
      <Button
        size="small"
        color="error"
        variant="outlined"
        onClick={() => retry.mutate(message.id)}
        disabled={retry.isPending}
        sx={{ py: 0 }}
      >
        {t("conversation.failed.retry")}
      </Button>
    </Box>
  );
}
