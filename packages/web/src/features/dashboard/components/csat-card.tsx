import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Rating from "@mui/material/Rating";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { RatingFigures } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useRatings } from "../api/get-ratings";

/** Red to green through the theme's palette, so the bars read in light and dark. */
const SCORE_COLORS = ["error.main", "warning.main", "warning.light", "success.light", "success.main"];

/** Five small bars, one per score 1–5, their height relative to the most frequent. */
function Distribution({ figures }: { figures: RatingFigures }) {
  const { t } = useTranslation();
  const top = Math.max(1, ...figures.distribution);
  const label = figures.distribution.map((count, i) => t("csat.dashboard.count", { count, rating: i + 1 })).join(", ");
  return (
    <Box aria-label={label} role="img" sx={{ display: "flex", alignItems: "flex-end", gap: 0.5, height: 32 }}>
      {figures.distribution.map((count, i) => (
        <Tooltip key={SCORE_COLORS[i]} title={t("csat.dashboard.count", { count, rating: i + 1 })}>
          <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", width: 18 }}>
            <Box
              sx={{ width: 14, height: `${Math.max(2, (count / top) * 24)}px`, bgcolor: SCORE_COLORS[i], borderRadius: 0.5 }}
            />
            <Typography variant="caption" sx={{ fontSize: 10, lineHeight: 1 }}>
              {i + 1}
            </Typography>
          </Box>
        </Tooltip>
      ))}
    </Box>
  );
}

function FiguresTable({ title, rows }: { title: string; rows: (RatingFigures & { key: string; name: string })[] }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ flex: 1, minWidth: 280 }}>
      <Typography variant="subtitle2" component="h3" gutterBottom>
        {title}
      </Typography>
      <Table size="small" aria-label={title}>
        <TableHead>
          <TableRow>
            <TableCell>{t("csat.dashboard.name")}</TableCell>
            <TableCell align="right">{t("csat.dashboard.average")}</TableCell>
            <TableCell align="right">{t("csat.dashboard.answers")}</TableCell>
            <TableCell>{t("csat.dashboard.distribution")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.key}>
              <TableCell>{row.name}</TableCell>
              <TableCell align="right">{row.average?.toFixed(2) ?? "–"}</TableCell>
              <TableCell align="right">{row.count}</TableCell>
              <TableCell>
                <Distribution figures={row} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** Issue 11 CSAT: the month's average rating and its distribution, overall, per agent and per queue. */
export function CsatCard({ month }: { month: string }) {
  const { t } = useTranslation();
  const { data } = useRatings(month);
  if (!data) return null;
  const { overall } = data;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={t("csat.dashboard.title")}>
      <Typography variant="subtitle1" color="primary" component="h2" gutterBottom>
        {t("csat.dashboard.title")}
      </Typography>
      {overall.count === 0 ? (
        <Typography color="text.secondary">{t("csat.dashboard.none")}</Typography>
      ) : (
        <Stack spacing={2}>
          <Stack direction="row" spacing={3} sx={{ alignItems: "center", flexWrap: "wrap" }}>
            <Box role="group" aria-label={t("csat.dashboard.average")}>
              <Typography variant="caption" color="text.secondary">
                {t("csat.dashboard.average")}
              </Typography>
              <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                <Typography variant="h4" data-testid="csat-average">
                  {overall.average?.toFixed(2)}
                </Typography>
                <Rating value={overall.average} precision={0.1} readOnly />
              </Stack>
            </Box>
            <Box role="group" aria-label={t("csat.dashboard.answers")}>
              <Typography variant="caption" color="text.secondary">
                {t("csat.dashboard.answers")}
              </Typography>
              <Typography variant="h4" data-testid="csat-count">
                {overall.count}
              </Typography>
            </Box>
            <Distribution figures={overall} />
          </Stack>
          <Stack direction="row" sx={{ gap: 3, flexWrap: "wrap" }}>
            <FiguresTable
              title={t("csat.dashboard.byUser")}
              rows={data.byUser.map((r) => ({ ...r, key: `u${r.userId}`, name: r.name ?? t("csat.dashboard.noUser") }))}
            />
            <FiguresTable
              title={t("csat.dashboard.byQueue")}
              rows={data.byQueue.map((r) => ({ ...r, key: `q${r.queueId}`, name: r.name ?? t("csat.dashboard.noQueue") }))}
            />
          </Stack>
        </Stack>
      )}
    </Paper>
  );
}
