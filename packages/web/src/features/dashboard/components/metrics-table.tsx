import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { MetricFigures } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { formatDuration } from "../utils/format-duration";

export const FIGURES = ["firstResponse", "resolution", "waiting"] as const;

export interface MetricsRow extends MetricFigures {
  key: string;
  name: string;
}

/** One row per queue or agent: tickets, then median and p90 of each figure, in human durations. */
export function MetricsTable({ title, rows }: { title: string; rows: MetricsRow[] }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={title}>
      <Typography variant="subtitle1" color="primary" component="h2" gutterBottom>
        {title}
      </Typography>
      {rows.length === 0 ? (
        <Typography color="text.secondary">{t("metrics.empty")}</Typography>
      ) : (
        <TableContainer>
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell rowSpan={2}>{t("metrics.table.name")}</TableCell>
                <TableCell rowSpan={2} align="right">
                  {t("metrics.table.tickets")}
                </TableCell>
                {FIGURES.map((f) => (
                  <TableCell key={f} colSpan={2} align="center">
                    {t(`metrics.figures.${f}`)}
                  </TableCell>
                ))}
              </TableRow>
              <TableRow>
                {FIGURES.flatMap((f) => [
                  <TableCell key={`${f}-m`} align="right">
                    {t("metrics.median")}
                  </TableCell>,
                  <TableCell key={`${f}-p`} align="right">
                    {t("metrics.p90")}
                  </TableCell>,
                ])}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.key}>
                  <TableCell component="th" scope="row">
                    {row.name}
                  </TableCell>
                  <TableCell align="right">{row.tickets}</TableCell>
                  {FIGURES.flatMap((f) => [
                    <TableCell key={`${f}-m`} align="right">
                      {formatDuration(row[f].median)}
                    </TableCell>,
                    <TableCell key={`${f}-p`} align="right">
                      {formatDuration(row[f].p90)}
                    </TableCell>,
                  ])}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Paper>
  );
}
