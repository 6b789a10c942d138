import CheckIcon from "@mui/icons-material/Check";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import { QUEUE_PALETTE } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

/**
 * The fixed 50-colour palette (spec §2) as a radio group: arrow keys move, the choice is announced.
 * A queue's colour is unique (ERR_QUEUE_COLOR_ALREADY_EXISTS), so a colour another queue holds is shown
 * as taken, named after that queue, and skipped: the admin sees the clash before saving, not after.
 */
export function ColorPicker({
  value,
  onChange,
  labelId,
  taken = new Map(),
}: {
  value: string;
  onChange(color: string): void;
  labelId: string;
  /** Colour (upper case) → name of the other queue that holds it. */
  taken?: ReadonlyMap<string, string>;
}) {
  const { t } = useTranslation();
  const selected = value.toUpperCase();
  const free: readonly string[] = QUEUE_PALETTE.filter((color) => color === selected || !taken.has(color));
  const selectable = free.includes(selected);
  return (
    <Box role="radiogroup" aria-labelledby={labelId} sx={{ display: "grid", gridTemplateColumns: "repeat(10, 28px)", gap: 0.75 }}>
      {QUEUE_PALETTE.map((color) => {
        const checked = color === selected;
        const holder = checked ? undefined : taken.get(color);
        return (
          <ButtonBase
            key={color}
            role="radio"
            aria-checked={checked}
            aria-disabled={holder ? true : undefined}
            disabled={!!holder}
            title={holder ? t("queueModal.form.colorTaken", { color, queue: holder }) : undefined}
            aria-label={
              holder ? t("queueModal.form.colorTaken", { color, queue: holder }) : t("queueModal.form.colorOption", { color })
            }
            tabIndex={checked || (!selectable && color === free[0]) ? 0 : -1}
            onClick={() => onChange(color)}
            onKeyDown={(e) => {
              const step = { ArrowRight: 1, ArrowDown: 10, ArrowLeft: -1, ArrowUp: -10 }[e.key];
              if (!step) return;
              e.preventDefault();
              const next = nextFree(color, step, free);
              if (!next) return;
              onChange(next);
              const group = e.currentTarget.parentElement;
              requestAnimationFrame(() => group?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus());
            }}
            sx={{
              width: 28,
              height: 28,
              borderRadius: 1,
              bgcolor: color,
              border: "1px solid rgba(0,0,0,0.25)",
              // A taken colour stays recognisable, crossed out, so the admin knows which queue has it.
              "&.Mui-disabled": {
                opacity: 0.35,
                backgroundImage: "linear-gradient(to top right, transparent 45%, #fff 45%, #fff 55%, transparent 55%)",
              },
            }}
          >
            {checked && <CheckIcon fontSize="small" sx={{ color: "#fff", filter: "drop-shadow(0 0 2px #000)" }} />}
          </ButtonBase>
        );
      })}
    </Box>
  );
}

/** The next colour an arrow key reaches, skipping taken ones; wraps around the palette. */
function nextFree(from: string, step: number, free: readonly string[]) {
  const palette: readonly string[] = QUEUE_PALETTE;
  const size = palette.length;
  let index = palette.indexOf(from);
  for (let tries = 0; tries < size; tries++) {
    index = (index + step + size) % size;
    const color = palette[index];
    if (free.includes(color)) return color;
  }
  return undefined;
}
