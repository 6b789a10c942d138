import Box from "@mui/material/Box";
import Chip, { type ChipProps } from "@mui/material/Chip";
import type { Tag } from "@zapdesk/core";

/** Black or white text, whichever reads better on the tag's colour. */
export function textOn(color: string): string {
  const hex = color.replace("#", "");
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16) || 0);
  return (r * 299 + g * 587 + b * 114) / 1000 > 150 ? "#000" : "#fff";
}

export function TagChip({ tag, ...props }: { tag: Tag } & Omit<ChipProps, "label" | "color">) {
  return (
    <Chip
      size="small"
      label={tag.name}
      data-tag-id={tag.id}
      {...props}
      sx={{
        bgcolor: tag.color,
        color: textOn(tag.color),
        maxWidth: 140,
        "& .MuiChip-deleteIcon": { color: textOn(tag.color), opacity: 0.7 },
        ...props.sx,
      }}
    />
  );
}

/** A row's tags, small; `max` of them then "+n". */
export function TagChips({ tags, max = 3, label, wrap = false }: { tags: Tag[]; max?: number; label?: string; wrap?: boolean }) {
  if (!tags.length) return null;
  const shown = tags.slice(0, max);
  return (
    <Box
      component="span"
      aria-label={label}
      sx={
        wrap
          ? { display: "flex", flexWrap: "wrap", gap: 0.5, mt: 0.5 }
          : { display: "inline-flex", gap: 0.5, flexShrink: 0, maxWidth: "50%", overflow: "hidden" }
      }
    >
      {shown.map((tag) => (
        <TagChip key={tag.id} tag={tag} sx={{ height: 18, fontSize: 11, "& .MuiChip-label": { px: 0.75 } }} />
      ))}
      {tags.length > max && <Chip size="small" label={`+${tags.length - max}`} sx={{ height: 18, fontSize: 11 }} />}
    </Box>
  );
}
