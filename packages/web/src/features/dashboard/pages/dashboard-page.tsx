import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { currentMonth, useDashboard } from "../api/get-dashboard";
import { AgentsLoadCard } from "../components/agents-load-card";
import { CsatCard } from "../components/csat-card";
import { MetricsSection } from "../components/metrics-section";
import { MonthPicker } from "../components/month-picker";
import { WaitingCard } from "../components/waiting-card";

const DashboardCharts = lazy(() => import("../components/dashboard-charts"));

function CountCard({ label, value, color }: { label: string; value: number; color: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, flex: 1, minWidth: 180 }} role="group" aria-label={label}>
      <Typography variant="subtitle1" color="primary">
        {label}
      </Typography>
      <Typography variant="h4" sx={{ color }} data-testid={`count-${label}`}>
        {value}
      </Typography>
    </Paper>
  );
}

/** Spec §2 Dashboard: three count cards and four bar charts. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const [month, setMonth] = useState(currentMonth);
  const { data, isLoading } = useDashboard(month);
  const monthSelect = <MonthPicker value={month} onApply={setMonth} />;

  return (
    <Box component="section" aria-label={t("dashboard.title")} sx={{ p: 2, height: "100%", overflowY: "auto" }}>
      <Typography variant="h5" component="h1" color="primary" gutterBottom>
        {t("dashboard.title")}
      </Typography>
      {isLoading || !data ? (
        <CircularProgress aria-label={t("common.loading")} />
      ) : (
        <Stack spacing={2}>
          <Stack direction="row" sx={{ gap: 2, flexWrap: "wrap" }}>
            <CountCard label={t("dashboard.counts.open")} value={data.counts.open} color="primary.main" />
            <CountCard label={t("dashboard.counts.pending")} value={data.counts.pending} color="warning.main" />
            <CountCard label={t("dashboard.counts.closed")} value={data.counts.closed} color="success.main" />
            <WaitingCard waiting={data.waiting} />
          </Stack>
          <Suspense fallback={<CircularProgress aria-label={t("common.loading")} />}>
            <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", lg: "1fr 1fr" }, gap: 2 }}>
              <DashboardCharts data={data} monthSelect={monthSelect} />
            </Box>
          </Suspense>
          <CsatCard month={month} />
          <MetricsSection />
          <AgentsLoadCard />
        </Stack>
      )}
    </Box>
  );
}
