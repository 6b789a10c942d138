import Chip from "@mui/material/Chip";
import type { WebhookDeliveryStatus } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

const COLOR = { success: "success", failed: "error", pending: "warning" } as const;

export function DeliveryStatusChip({ status }: { status: WebhookDeliveryStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" color={COLOR[status]} label={t(`webhooks.status.${status}`)} data-status={status} />;
}
