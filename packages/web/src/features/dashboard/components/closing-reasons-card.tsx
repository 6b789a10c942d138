import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { downloadTicketsCsv, useClosingReport } from "../api/get-closing-report";
import type { MetricsFilters } from "../api/get-metrics";

interface Row {
  key: string;
  group?: string;
  name: string;
  archived: boolean;
  count: number;
  total: number | null;
}

function ReasonsTable({ title, groupLabel, rows }: { title: string; groupLabel?: string; rows: Row[] }) {
  const { t, i18n } = useTranslation();
  const amount = (v: number | null) =>
    v === null ? "–" : v.toLocaleString(i18n.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return (
    <Box sx={{ flex: 1, minWidth: 280 }}>
      <Typography variant="subtitle2" component="h3" gutterBottom>
        {title}
      </Typography>
      <Table size="small" aria-label={title}>
        <TableHead>
          <TableRow>
            {groupLabel && <TableCell>{groupLabel}</TableCell>}
            <TableCell>{t("closingReasons.report.reason")}</TableCell>
            <TableCell align="right">{t("closingReasons.report.count")}</TableCell>
            <TableCell align="right">{t("closingReasons.report.total")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.key}>
              {groupLabel && <TableCell>{row.group}</TableCell>}
              <TableCell>
                {row.name}
                {row.archived ? ` (${t("closingReasons.status.archived")})` : ""}
              </TableCell>
              <TableCell align="right">{row.count}</TableCell>
              <TableCell align="right">{amount(row.total)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** Issue 23 §6: the closing reasons of the metrics' period and filters, and the tickets export. */
export function ClosingReasonsCard({ filters }: { filters: MetricsFilters }) {
  const { t } = useTranslation();
  const { data } = useClosingReport(filters);
  const title = t("closingReasons.report.title");
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={title}>
      <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", mb: 1, gap: 1, flexWrap: "wrap" }}>
        <Typography variant="subtitle1" color="primary" component="h2">
          {title}
        </Typography>
        <Button size="small" variant="outlined" onClick={() => void downloadTicketsCsv(filters)}>
          {t("closingReasons.report.export")}
        </Button>
      </Stack>
      {!data ? null : data.byReason.length === 0 ? (
        <Typography color="text.secondary">{t("closingReasons.report.none")}</Typography>
      ) : (
        <Stack spacing={2}>
          <ReasonsTable
            title={t("closingReasons.report.byReason")}
            rows={data.byReason.map((r) => ({ ...r, key: `r${r.reasonId}` }))}
          />
          <Stack direction="row" sx={{ gap: 3, flexWrap: "wrap" }}>
            <ReasonsTable
              title={t("closingReasons.report.byQueue")}
              groupLabel={t("closingReasons.report.queue")}
              rows={data.byQueue.map((r) => ({
                ...r,
                key: `q${r.queueId}-${r.reasonId}`,
                group: r.queueName ?? t("metrics.noQueue"),
              }))}
            />
            <ReasonsTable
              title={t("closingReasons.report.byUser")}
              groupLabel={t("closingReasons.report.agent")}
              rows={data.byUser.map((r) => ({
                ...r,
                key: `u${r.userId}-${r.reasonId}`,
                group: r.userName ?? t("metrics.noAgent"),
              }))}
            />
          </Stack>
        </Stack>
      )}
    </Paper>
  );
}
