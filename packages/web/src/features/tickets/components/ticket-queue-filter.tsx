import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import ListItemText from "@mui/material/ListItemText";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import type { User } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

/** The multi-select of the user's own queues that narrows every list (spec §2). */
export function TicketQueueFilter({
  queues,
  value,
  onChange,
}: {
  queues: User["queues"];
  value: number[];
  onChange(ids: number[]): void;
}) {
  const { t } = useTranslation();
  if (queues.length === 0) return null;
  return (
    <FormControl size="small" sx={{ minWidth: 120 }}>
      <Select
        multiple
        displayEmpty
        value={value}
        onChange={(e) => onChange(e.target.value as number[])}
        renderValue={() => t("tickets.queues.label")}
        inputProps={{ "aria-label": t("tickets.queues.label") }}
      >
        {queues.map((queue) => (
          <MenuItem key={queue.id} value={queue.id} dense>
            <Checkbox
              size="small"
              checked={value.includes(queue.id)}
              sx={{ color: queue.color, "&.Mui-checked": { color: queue.color } }}
            />
            <ListItemText primary={queue.name} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
