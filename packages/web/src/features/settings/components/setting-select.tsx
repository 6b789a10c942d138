import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";

interface SettingSelectProps {
  /** Id of the visible text that names this setting (the row title). */
  labelledBy: string;
  value: string;
  options: { value: string; label: string }[];
  onChange(value: string): void;
}

export function SettingSelect({ labelledBy, value, options, onChange }: SettingSelectProps) {
  return (
    <Select size="small" sx={{ minWidth: 200 }} labelId={labelledBy} value={value} onChange={(e) => onChange(e.target.value)}>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </Select>
  );
}
