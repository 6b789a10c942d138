import LockOutlined from "@mui/icons-material/LockOutlined";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";
import { isBsuidNumber, isLidNumber } from "../lib/capabilities";

/**
 * A contact's WhatsApp number: a tel: link where asked, or, for a WhatsApp LID identity or a Cloud
 * API username customer (no phone number known), "Private number" (or their @username) with why,
 * never the LID digits or the user id as if they could be dialled.
 */
export function PhoneNumber({ number, link = false, username }: { number: string; link?: boolean; username?: string | null }) {
  const { t } = useTranslation();
  const bsuid = isBsuidNumber(number);
  if (isLidNumber(number) || bsuid) {
    return (
      <Tooltip title={t(bsuid ? "contacts.bsuid.help" : "contacts.lid.help")} describeChild>
        <Box
          component="span"
          tabIndex={0}
          sx={{ display: "inline-flex", alignItems: "center", gap: 0.5, color: "text.secondary", fontStyle: "italic" }}
        >
          <LockOutlined fontSize="inherit" aria-hidden />
          {bsuid && username ? `@${username}` : t("contacts.lid.hidden")}
        </Box>
      </Tooltip>
    );
  }
  if (link) return <Link href={`tel:${number}`}>{number}</Link>;
  return <Box component="span">{number}</Box>;
}
