import AddIcon from "@mui/icons-material/Add";
import Box from "@mui/material/Box";
import Checkbox from "@mui/material/Checkbox";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import type { Tag } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTags } from "../api/tags-api";
import { TagChip } from "./tag-chip";

interface TagPickerProps {
  /** What the ticket or contact carries now. */
  value: Tag[];
  /** The whole new set of ids. */
  onChange(tagIds: number[]): void;
  disabled?: boolean;
  /** Names the control for screen readers ("Tags of Maria"). */
  label: string;
  compact?: boolean;
}

/**
 * Chips in their colours, each removable (its ✕, or Delete on the focused chip), and "+" opening the
 * list of every tag to tick or untick. `compact`: one line that clips the chips (the ticket header);
 * the list still shows every tag.
 */
export function TagPicker({ value, onChange, disabled, label, compact = false }: TagPickerProps) {
  const { t } = useTranslation();
  const { data: all = [] } = useTags();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const ids = value.map((tag) => tag.id);
  const toggle = (id: number) => onChange(ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]);
  return (
    <Box
      role="group"
      aria-label={label}
      title={compact && value.length ? value.map((tag) => tag.name).join(", ") : undefined}
      sx={{ display: "flex", flexWrap: compact ? "nowrap" : "wrap", gap: 0.5, alignItems: "center", minWidth: 0 }}
    >
      <Box
        sx={compact ? { display: "flex", gap: 0.5, minWidth: 0, overflow: "hidden", flex: "0 1 auto" } : { display: "contents" }}
      >
        {value.map((tag) => (
          <TagChip
            key={tag.id}
            tag={tag}
            onDelete={disabled ? undefined : () => toggle(tag.id)}
            aria-label={disabled ? tag.name : t("tags.picker.chip", { name: tag.name })}
            sx={compact ? { flexShrink: 1, minWidth: 72, maxWidth: 110 } : undefined}
          />
        ))}
      </Box>
      <IconButton
        size="small"
        aria-label={t("tags.picker.add")}
        aria-haspopup="menu"
        disabled={disabled}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ flexShrink: 0 }}
      >
        <AddIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {all.length === 0 && (
          <MenuItem disabled dense>
            {t("tags.picker.none")}
          </MenuItem>
        )}
        {all.map((tag) => (
          <MenuItem
            key={tag.id}
            dense
            role="menuitemcheckbox"
            aria-checked={ids.includes(tag.id)}
            onClick={() => {
              setAnchor(null);
              toggle(tag.id);
            }}
          >
            <ListItemIcon>
              <Checkbox
                size="small"
                edge="start"
                tabIndex={-1}
                checked={ids.includes(tag.id)}
                slotProps={{ input: { "aria-hidden": true } }}
                sx={{ p: 0, color: tag.color, "&.Mui-checked": { color: tag.color } }}
              />
            </ListItemIcon>
            <ListItemText primary={tag.name} />
          </MenuItem>
        ))}
      </Menu>
    </Box>
  );
}
