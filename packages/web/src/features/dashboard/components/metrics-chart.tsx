import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { Metrics } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatDuration } from "../utils/format-duration";
import { FIGURES } from "./metrics-table";

type Figure = (typeof FIGURES)[number];

/** The axis unit that keeps the longest value readable: seconds, minutes or hours. */
export function axisUnit(maxMs: number): { unit: string; ms: number } {
  if (maxMs < 2 * 60_000) return { unit: "s", ms: 1000 };
  if (maxMs < 3 * 3_600_000) return { unit: "min", ms: 60_000 };
  return { unit: "h", ms: 3_600_000 };
}

/** Recharts, like the spec's charts: loaded only with the dashboard. Median and p90 of one figure per day, in s, min or h. */
export default function MetricsChart({ byDay }: { byDay: Metrics["byDay"] }) {
  const { t } = useTranslation();
  const [figure, setFigure] = useState<Figure>("firstResponse");
  const title = t("metrics.chart.title");
  const axis = axisUnit(Math.max(0, ...byDay.map((d) => d[figure].p90 ?? 0)));
  const scaled = (ms: number | null) => (ms === null ? null : Math.round((ms / axis.ms) * 10) / 10);
  const data = byDay.map((d) => ({
    label: d.day.slice(8, 10),
    median: scaled(d[figure].median),
    p90: scaled(d[figure].p90),
  }));
  return (
    <Paper
      variant="outlined"
      // A region, not a figure: the spec's four charts stay the page's only figures.
      component="section"
      aria-label={title}
      sx={{ p: 2, m: 0, height: 320, display: "flex", flexDirection: "column" }}
    >
      <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", mb: 1 }}>
        <Typography component="h3" variant="subtitle1" color="primary">
          {title}
        </Typography>
        <TextField
          select
          size="small"
          label={t("metrics.chart.figure")}
          value={figure}
          onChange={(e) => setFigure(e.target.value as Figure)}
          sx={{ minWidth: 200 }}
        >
          {FIGURES.map((f) => (
            <MenuItem key={f} value={f}>
              {t(`metrics.figures.${f}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" />
          <YAxis unit={` ${axis.unit}`} width={64} allowDecimals={false} />
          <Tooltip formatter={(v) => formatDuration(typeof v === "number" ? v * axis.ms : null)} />
          <Legend />
          <Line
            dataKey="median"
            name={t("metrics.median")}
            stroke="#2576d2"
            connectNulls
            isAnimationActive={false}
            dot={{ r: 3 }}
          />
          <Line dataKey="p90" name={t("metrics.p90")} stroke="#ed6c02" connectNulls isAnimationActive={false} dot={{ r: 3 }} />
        </LineChart>
      </ResponsiveContainer>
    </Paper>
  );
}
