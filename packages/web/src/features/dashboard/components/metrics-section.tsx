import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { type MetricsFilters, useMetrics } from "../api/get-metrics";
import { formatDuration } from "../utils/format-duration";
import { presetRange } from "../utils/periods";
import { ClosingReasonsCard } from "./closing-reasons-card";
import { MetricsFiltersBar } from "./metrics-filters";
import { FIGURES, MetricsTable } from "./metrics-table";

const MetricsChart = lazy(() => import("./metrics-chart"));

/** Issue 13: first response, resolution and waiting (median and p90) for a period, queue and agent. */
export function MetricsSection() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<MetricsFilters>(() => ({ ...presetRange("thisMonth"), queueId: null, userId: null }));
  const { data, isError } = useMetrics(filters);
  const title = t("metrics.title");
  return (
    <Stack component="section" aria-label={title} spacing={2}>
      <Typography variant="h6" component="h2" color="primary">
        {title}
      </Typography>
      <MetricsFiltersBar value={filters} onChange={setFilters} options={data?.options} />
      {isError ? (
        <Typography color="error">{t("metrics.error")}</Typography>
      ) : !data ? (
        <CircularProgress aria-label={t("common.loading")} />
      ) : (
        <>
          <Stack direction="row" sx={{ gap: 2, flexWrap: "wrap" }}>
            {FIGURES.map((f) => (
              <Paper
                key={f}
                variant="outlined"
                sx={{ p: 2, flex: 1, minWidth: 200 }}
                role="group"
                aria-label={t(`metrics.figures.${f}`)}
              >
                <Typography variant="subtitle1" color="primary">
                  {t(`metrics.figures.${f}`)}
                </Typography>
                <Typography variant="h5" data-testid={`metric-${f}-median`}>
                  {formatDuration(data.overall[f].median)}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {t("metrics.card", { p90: formatDuration(data.overall[f].p90), count: data.overall[f].count })}
                </Typography>
              </Paper>
            ))}
          </Stack>
          <Suspense fallback={<CircularProgress aria-label={t("common.loading")} />}>
            <MetricsChart byDay={data.byDay} />
          </Suspense>
          <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", xl: "1fr 1fr" }, gap: 2 }}>
            <MetricsTable
              title={t("metrics.byQueue")}
              rows={data.byQueue.map((q) => ({ ...q, key: `q${q.queueId}`, name: q.name ?? t("metrics.noQueue") }))}
            />
            <MetricsTable
              title={t("metrics.byUser")}
              rows={data.byUser.map((u) => ({ ...u, key: `u${u.userId}`, name: u.name ?? t("metrics.noAgent") }))}
            />
          </Box>
          <ClosingReasonsCard filters={filters} />
        </>
      )}
    </Stack>
  );
}
