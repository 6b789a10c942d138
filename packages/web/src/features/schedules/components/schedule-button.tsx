import ScheduleIcon from "@mui/icons-material/Schedule";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ScheduleDialog } from "./schedule-dialog";

/** The composer's clock (a ticket) or the contact's "Schedule message" button. */
export function ScheduleButton({
  target,
  variant = "icon",
  disabled,
  label,
  size,
}: {
  target: { ticketId: number } | { contactId: number };
  variant?: "icon" | "button";
  disabled?: boolean;
  /** The icon's accessible name (a list of contacts names the contact). */
  label?: string;
  size?: "small" | "medium";
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      {variant === "icon" ? (
        <IconButton aria-label={label ?? t("schedules.action")} onClick={() => setOpen(true)} disabled={disabled} size={size}>
          <ScheduleIcon />
        </IconButton>
      ) : (
        <Button variant="outlined" startIcon={<ScheduleIcon />} onClick={() => setOpen(true)} disabled={disabled}>
          {t("schedules.action")}
        </Button>
      )}
      {open && <ScheduleDialog open={open} onClose={() => setOpen(false)} target={target} />}
    </>
  );
}
