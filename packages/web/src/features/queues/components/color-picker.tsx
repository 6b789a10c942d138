import CheckIcon from "@mui/icons-material/Check";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import { QUEUE_PALETTE } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

/** The fixed 50-colour palette (spec §2) as a radio group: arrow keys move, the choice is announced. */
export function ColorPicker({ value, onChange, labelId }: { value: string; onChange(color: string): void; labelId: string }) {
  const { t } = useTranslation();
  const selected = value.toUpperCase();
  return (
    <Box role="radiogroup" aria-labelledby={labelId} sx={{ display: "grid", gridTemplateColumns: "repeat(10, 28px)", gap: 0.75 }}>
      {QUEUE_PALETTE.map((color) => {
        const checked = color === selected;
        return (
          <ButtonBase
            key={color}
            role="radio"
            aria-checked={checked}
            aria-label={t("queueModal.form.colorOption", { color })}
            tabIndex={checked || (!selected && color === QUEUE_PALETTE[0]) ? 0 : -1}
            onClick={() => onChange(color)}
            onKeyDown={(e) => {
              const index = QUEUE_PALETTE.indexOf(color);
              const step = { ArrowRight: 1, ArrowDown: 10, ArrowLeft: -1, ArrowUp: -10 }[e.key];
              if (!step) return;
              e.preventDefault();
              const next = QUEUE_PALETTE[(index + step + QUEUE_PALETTE.length) % QUEUE_PALETTE.length];
              onChange(next);
              const group = e.currentTarget.parentElement;
              requestAnimationFrame(() => group?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus());
            }}
            sx={{ width: 28, height: 28, borderRadius: 1, bgcolor: color, border: "1px solid rgba(0,0,0,0.25)" }}
          >
            {checked && <CheckIcon fontSize="small" sx={{ color: "#fff", filter: "drop-shadow(0 0 2px #000)" }} />}
          </ButtonBase>
        );
      })}
    </Box>
  );
}
