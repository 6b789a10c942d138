import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import MenuItem from "@mui/material/MenuItem";
import OutlinedInput from "@mui/material/OutlinedInput";
import Select from "@mui/material/Select";
import { useTranslation } from "react-i18next";
import { useQueues } from "../lib/queries/use-queues";

/** Multi-select of queues, shared by the user and connection modals. */
export function QueueSelect({ value, onChange }: { value: number[]; onChange(ids: number[]): void }) {
  const { t } = useTranslation();
  const { data: queues = [] } = useQueues();
  return (
    <FormControl fullWidth margin="dense">
      <InputLabel id="queue-select-label">{t("queueSelect.inputLabel")}</InputLabel>
      <Select
        labelId="queue-select-label"
        multiple
        value={value}
        onChange={(e) => onChange(e.target.value as number[])}
        input={<OutlinedInput label={t("queueSelect.inputLabel")} />}
        renderValue={(selected) => (
          <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
            {selected.map((id) => {
              const queue = queues.find((q) => q.id === id);
              return queue ? (
                <Chip
                  key={id}
                  size="small"
                  label={queue.name}
                  sx={{ bgcolor: queue.color, color: "#fff", textShadow: "0 0 2px #000" }}
                />
              ) : null;
            })}
          </Box>
        )}
      >
        {queues.map((queue) => (
          <MenuItem key={queue.id} value={queue.id}>
            {queue.name}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
