import MenuItem from "@mui/material/MenuItem";
import { useTranslation } from "react-i18next";
import { PresenceDot } from "./presence-dot";
import { setManualAway, useManualAway } from "./use-away";

/** Issue 13: the user menu's "Away" / "Available" choice (reported over the socket). */
export function AwayMenuItem({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const away = useManualAway();
  return (
    <MenuItem
      onClick={() => {
        setManualAway(!away);
        onDone();
      }}
      sx={{ gap: 1 }}
    >
      <PresenceDot status={away ? "online" : "away"} />
      {away ? t("routing.presence.setOnline") : t("routing.presence.setAway")}
    </MenuItem>
  );
}
