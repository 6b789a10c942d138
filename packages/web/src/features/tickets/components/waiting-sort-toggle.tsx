import SwapVertIcon from "@mui/icons-material/SwapVert";
import ToggleButton from "@mui/material/ToggleButton";
import Tooltip from "@mui/material/Tooltip";
import { useState } from "react";
import { useTranslation } from "react-i18next";

const STORAGE_KEY = "zapdesk.waitingOldestFirst";

/** Issue 13: the Waiting list oldest first, on request; the choice is remembered on this browser. */
export function useWaitingOldestFirst(): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => {
    try {
      return localStorage.getItem(STORAGE_KEY) === "1";
    } catch {
      return false;
    }
  });
  const set = (next: boolean) => {
    setValue(next);
    try {
      localStorage.setItem(STORAGE_KEY, next ? "1" : "0");
    } catch {
      // private mode: the choice lasts for the page
    }
  };
  return [value, set];
}

export function WaitingSortToggle({ value, onChange }: { value: boolean; onChange(value: boolean): void }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t(value ? "flow.sort.oldestOn" : "flow.sort.oldestOff")}>
      <ToggleButton
        value="oldest"
        size="small"
        selected={value}
        onChange={() => onChange(!value)}
        aria-label={t("flow.sort.oldest")}
        sx={{ py: 0.25, gap: 0.5, textTransform: "none" }}
      >
        <SwapVertIcon fontSize="small" />
        {t("flow.sort.oldest")}
      </ToggleButton>
    </Tooltip>
  );
}
