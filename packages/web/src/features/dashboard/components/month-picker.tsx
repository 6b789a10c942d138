import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import { useTranslation } from "react-i18next";

const YEARS_BACK = 5;

/** January to December in the interface's language (the browser's own month input follows the browser's). */
export function monthNames(language: string): string[] {
  const format = new Intl.DateTimeFormat(language, { month: "long", timeZone: "UTC" });
  return Array.from({ length: 12 }, (_, month) => format.format(new Date(Date.UTC(2000, month, 1))));
}

/** Spec §2: a month (yyyy-MM) for the per-day chart, applied with the button. */
export function MonthPicker({ value, onApply }: { value: string; onApply(month: string): void }) {
  const { t, i18n } = useTranslation();
  const [year, setYear] = useState(value.slice(0, 4));
  const [month, setMonth] = useState(value.slice(5, 7));
  const thisYear = new Date().getFullYear();
  const years = Array.from({ length: YEARS_BACK + 1 }, (_, i) => String(thisYear - i));
  if (!years.includes(year)) years.push(year);
  const native = { select: { native: true } } as const;

  return (
    <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: "center" }}>
      <TextField
        select
        size="small"
        label={t("dashboard.month")}
        value={month}
        onChange={(e) => setMonth(e.target.value)}
        slotProps={native}
      >
        {monthNames(i18n.language).map((name, index) => (
          <option key={name} value={String(index + 1).padStart(2, "0")}>
            {name}
          </option>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t("dashboard.year")}
        value={year}
        onChange={(e) => setYear(e.target.value)}
        slotProps={native}
      >
        {years.map((y) => (
          <option key={y} value={y}>
            {y}
          </option>
        ))}
      </TextField>
      <Button variant="contained" size="small" onClick={() => onApply(`${year}-${month}`)}>
        {t("dashboard.apply")}
      </Button>
    </Stack>
  );
}
