import Paper from "@mui/material/Paper";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import type { Dashboard } from "@zapdesk/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { countTicks } from "../utils/count-axis";

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, m: 0, height: 300, display: "flex", flexDirection: "column" }}
      component="figure"
      aria-label={title}
    >
      <Typography component="figcaption" variant="subtitle1" color="primary" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function Bars({ data, name }: { data: { label: string; count: number }[]; name: string }) {
  // Our own ticks: the library's "nice" domain drew a count of 1 on a 0–4 axis.
  const ticks = countTicks(data.map((d) => d.count));
  const { palette } = useTheme();
  const axis = { fill: palette.text.secondary, fontSize: 12 };
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -20 }}>
        <CartesianGrid strokeDasharray="3 3" stroke={palette.divider} />
        <XAxis dataKey="label" tick={axis} stroke={palette.divider} />
        <YAxis
          tick={axis}
          stroke={palette.divider}
          allowDecimals={false}
          domain={[0, ticks[ticks.length - 1]]}
          ticks={ticks}
          interval={0}
        />
        <Tooltip
          contentStyle={{ background: palette.background.paper, borderColor: palette.divider, color: palette.text.primary }}
          cursor={{ fill: palette.action.hover }}
        />
        {/* Drawn at its value at once: no growing animation to wait for or to misread. */}
        <Bar dataKey="count" name={name} fill={palette.primary.main} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Recharts is a third of a bundle: this file is loaded only when the dashboard shows. */
export default function DashboardCharts({ data, monthSelect }: { data: Dashboard; monthSelect: ReactNode }) {
  const { t } = useTranslation();
  const name = t("dashboard.charts.tickets");
  return (
    <>
      <ChartCard title={t("dashboard.charts.today")}>
        <Bars name={name} data={data.today.map((b) => ({ label: `${String(b.key).padStart(2, "0")}:00`, count: b.count }))} />
      </ChartCard>
      <ChartCard title={t("dashboard.charts.month")}>
        {monthSelect}
        <Bars name={name} data={data.month.map((b) => ({ label: String(b.key), count: b.count }))} />
      </ChartCard>
      <ChartCard title={t("dashboard.charts.closedByMonth")}>
        <Bars name={name} data={data.closedByMonth.map((b) => ({ label: String(b.key), count: b.count }))} />
      </ChartCard>
      <ChartCard title={t("dashboard.charts.closedByUser")}>
        <Bars name={name} data={data.closedByUser.map((u) => ({ label: u.name, count: u.count }))} />
      </ChartCard>
    </>
  );
}
