import Box from "@mui/material/Box";
import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import ListItemText from "@mui/material/ListItemText";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import { useTranslation } from "react-i18next";
import { useTags } from "../api/tags-api";

/** The ticket list's tag filter, beside the queue filter: tickets with ANY ticked tag; none ticked, no filter. */
export function TagFilter({ value, onChange }: { value: number[]; onChange(ids: number[]): void }) {
  const { t } = useTranslation();
  const { data: tags = [] } = useTags();
  if (tags.length === 0) return null;
  return (
    <FormControl size="small" sx={{ minWidth: 110 }}>
      <Select
        multiple
        displayEmpty
        value={value}
        onChange={(e) => onChange(e.target.value as number[])}
        // The label keeps its width (the toolbar has no room to grow); an active filter shows in colour.
        renderValue={() => (
          <Box component="span" sx={value.length ? { fontWeight: 600, color: "primary.main" } : undefined}>
            {t("tags.filter.label")}
          </Box>
        )}
        title={value.length ? t("tags.filter.some", { count: value.length }) : undefined}
        inputProps={{ "aria-label": t("tags.filter.label") }}
      >
        {tags.map((tag) => (
          <MenuItem key={tag.id} value={tag.id} dense>
            <Checkbox
              size="small"
              checked={value.includes(tag.id)}
              sx={{ color: tag.color, "&.Mui-checked": { color: tag.color } }}
            />
            <ListItemText primary={tag.name} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
