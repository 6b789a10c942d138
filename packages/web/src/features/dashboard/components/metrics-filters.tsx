import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import type { Metrics } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { MetricsFilters } from "../api/get-metrics";
import { type PeriodPreset, presetRange, validRange } from "../utils/periods";

const PRESETS: PeriodPreset[] = ["thisMonth", "last7", "last30", "lastMonth", "custom"];

/** Period (presets or a custom range), queue and agent; the options are those the server offers this viewer. */
export function MetricsFiltersBar({
  value,
  onChange,
  options,
}: {
  value: MetricsFilters;
  onChange: (next: MetricsFilters) => void;
  options: Metrics["options"] | undefined;
}) {
  const { t } = useTranslation();
  const [preset, setPreset] = useState<PeriodPreset>("thisMonth");
  const [custom, setCustom] = useState({ from: value.from, to: value.to });
  const customValid = validRange(custom.from, custom.to);

  return (
    <Stack
      direction="row"
      sx={{ gap: 1.5, flexWrap: "wrap", alignItems: "center" }}
      role="group"
      aria-label={t("metrics.filters.label")}
    >
      <TextField
        select
        size="small"
        label={t("metrics.filters.period")}
        value={preset}
        onChange={(e) => {
          const next = e.target.value as PeriodPreset;
          setPreset(next);
          if (next !== "custom") onChange({ ...value, ...presetRange(next) });
          else setCustom({ from: value.from, to: value.to });
        }}
        sx={{ minWidth: 170 }}
      >
        {PRESETS.map((p) => (
          <MenuItem key={p} value={p}>
            {t(`metrics.filters.presets.${p}`)}
          </MenuItem>
        ))}
      </TextField>
      {preset === "custom" && (
        <>
          <TextField
            type="date"
            size="small"
            label={t("metrics.filters.from")}
            value={custom.from}
            onChange={(e) => setCustom({ ...custom, from: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="date"
            size="small"
            label={t("metrics.filters.to")}
            value={custom.to}
            onChange={(e) => setCustom({ ...custom, to: e.target.value })}
            error={!customValid}
            helperText={customValid ? undefined : t("metrics.filters.invalidRange")}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button variant="outlined" disabled={!customValid} onClick={() => onChange({ ...value, ...custom })}>
            {t("metrics.filters.apply")}
          </Button>
        </>
      )}
      <TextField
        select
        size="small"
        label={t("metrics.filters.queue")}
        value={value.queueId ?? ""}
        onChange={(e) => onChange({ ...value, queueId: e.target.value === "" ? null : Number(e.target.value) })}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        sx={{ minWidth: 170 }}
      >
        <MenuItem value="">{t("metrics.filters.allQueues")}</MenuItem>
        {(options?.queues ?? []).map((q) => (
          <MenuItem key={q.id} value={q.id}>
            {q.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t("metrics.filters.agent")}
        value={value.userId ?? ""}
        onChange={(e) => onChange({ ...value, userId: e.target.value === "" ? null : Number(e.target.value) })}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        sx={{ minWidth: 170 }}
      >
        <MenuItem value="">{t("metrics.filters.allAgents")}</MenuItem>
        {(options?.users ?? []).map((u) => (
          <MenuItem key={u.id} value={u.id}>
            {u.name}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
