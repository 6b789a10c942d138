import Chip from "@mui/material/Chip";
import { type BusinessHours, isOpenAt } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** The time now, refreshed every minute (the chips follow the clock without a reload). */
function useMinute(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** "Always open", "Open now" or "Closed now" for a queue's business hours. */
export function OpenNowChip({ schedule }: { schedule: BusinessHours | null }) {
  const { t } = useTranslation();
  const now = useMinute();
  if (!schedule) return <Chip size="small" variant="outlined" label={t("businessHours.chip.always")} />;
  const open = isOpenAt(schedule, now);
  return (
    <Chip
      size="small"
      color={open ? "success" : "default"}
      label={open ? t("businessHours.chip.open") : t("businessHours.chip.closed")}
      title={schedule.timezone}
    />
  );
}
