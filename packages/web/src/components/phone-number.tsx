import LockOutlined from "@mui/icons-material/LockOutlined";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";
import { isLidNumber } from "../lib/capabilities";

/**
 * A contact's WhatsApp number: a tel: link where asked, or, for a WhatsApp LID identity (no phone
 * number known), "Private number" with why, never the LID digits as if they could be dialled.
 */
export function PhoneNumber({ number, link = false }: { number: string; link?: boolean }) {
  const { t } = useTranslation();
  if (isLidNumber(number)) {
    return (
      <Tooltip title={t("contacts.lid.help")} describeChild>
        <Box
          component="span"
          tabIndex={0}
          sx={{ display: "inline-flex", alignItems: "center", gap: 0.5, color: "text.secondary", fontStyle: "italic" }}
        >
          <LockOutlined fontSize="inherit" aria-hidden />
          {t("contacts.lid.hidden")}
        </Box>
      </Tooltip>
    );
  }
  if (link) return <Link href={`tel:${number}`}>{number}</Link>;
  return <Box component="span">{number}</Box>;
}
