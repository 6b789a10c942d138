import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Rule, RuleRun } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRuleLog } from "../api/rules-api";

/** Issue 23 §1: a rule's execution log, newest first, a page at a time (keyed by the rule: a new one starts at page 1). */
export function RuleLogDialog({ rule, onClose }: { rule: Rule | null; onClose(): void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const { data } = useRuleLog(rule?.id ?? null, page);
  const detail = (run: RuleRun) => {
    if (run.outcome === "done") {
      return run.results
        .map((r) => `${t(`macros.actionTypes.${r.type}`)}: ${t(`automationRules.results.${r.outcome}`)}`)
        .join(", ");
    }
    if (run.outcome === "condition") return t("automationRules.log.failedCondition", { n: (run.failedCondition ?? 0) + 1 });
    return [run.errorCode, run.errorMessage].filter(Boolean).join(" — ");
  };
  return (
    <Dialog open={!!rule} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="rule-log-title">
      <DialogTitle id="rule-log-title">{t("automationRules.log.title", { name: rule?.name ?? "" })}</DialogTitle>
      <DialogContent dividers>
        {data && data.notMet.count > 0 && (
          // Events the rule's conditions did not meet are not firings: counted, not listed (issue 23 §1).
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="rule-not-met">
            {t("automationRules.log.notMet", {
              count: data.notMet.count,
              since: data.notMet.since ? new Date(data.notMet.since).toLocaleString() : "",
              conditions: data.notMet.byCondition
                .map((c) => t("automationRules.log.notMetCondition", { n: c.index + 1, count: c.count }))
                .join(", "),
            })}
          </Typography>
        )}
        <Table size="small" aria-label={t("automationRules.log.title", { name: rule?.name ?? "" })}>
          <TableHead>
            <TableRow>
              <TableCell>{t("automationRules.log.when")}</TableCell>
              <TableCell>{t("automationRules.log.ticket")}</TableCell>
              <TableCell>{t("automationRules.log.event")}</TableCell>
              <TableCell>{t("automationRules.log.outcome")}</TableCell>
              <TableCell>{t("automationRules.log.detail")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(data?.runs ?? []).map((run) => (
              <TableRow key={run.id}>
                <TableCell>{new Date(run.createdAt).toLocaleString()}</TableCell>
                <TableCell>{run.ticketId ?? "—"}</TableCell>
                <TableCell>
                  {t(`automationRules.triggers.${run.event.kind}`)}
                  {run.event.text ? ` · “${run.event.text}”` : ""}
                </TableCell>
                <TableCell>{t(`automationRules.outcomes.${run.outcome}`)}</TableCell>
                <TableCell>{detail(run)}</TableCell>
              </TableRow>
            ))}
            {data && data.runs.length === 0 && (
              <TableRow>
                <TableCell colSpan={5}>{t("automationRules.log.empty")}</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button disabled={page === 1} onClick={() => setPage(page - 1)}>
          {t("automationRules.log.newer")}
        </Button>
        <Button disabled={!data?.hasMore} onClick={() => setPage(page + 1)}>
          {t("automationRules.log.older")}
        </Button>
        <Button onClick={onClose}>{t("automationRules.log.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
