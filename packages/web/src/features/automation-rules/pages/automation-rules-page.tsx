import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import ListAlt from "@mui/icons-material/ListAlt";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Switch from "@mui/material/Switch";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Rule } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { PageContainer } from "../../../components/ui/page-container";
import { ROW_ACTIONS_SX } from "../../../components/ui/row-actions";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { toast } from "../../../lib/toast";
import { useDeleteRule, useEnableRule, useRules } from "../api/rules-api";
import { RuleLogDialog } from "../components/rule-log-dialog";
import { RuleModal } from "../components/rule-modal";

/** Issue 23 §1: the automation rules (admins, rules:manage): list, enable, edit with a dry run, log. */
export default function AutomationRulesPage() {
  const { t } = useTranslation();
  const { data: rules = [], isLoading } = useRules();
  const [modal, setModal] = useState<{ open: boolean; rule: Rule | null }>({ open: false, rule: null });
  const [deleting, setDeleting] = useState<Rule | null>(null);
  const [logOf, setLogOf] = useState<Rule | null>(null);
  const remove = useDeleteRule();
  const enable = useEnableRule();

  return (
    <PageContainer
      title={t("automationRules.title")}
      actions={
        <Button variant="contained" onClick={() => setModal({ open: true, rule: null })}>
          {t("automationRules.buttons.add")}
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t("automationRules.intro")}
      </Typography>
      <RuleModal open={modal.open} rule={modal.rule} onClose={() => setModal({ open: false, rule: null })} />
      <RuleLogDialog key={logOf?.id ?? 0} rule={logOf} onClose={() => setLogOf(null)} />
      <ConfirmDialog
        open={!!deleting}
        title={t("automationRules.confirmDelete", { name: deleting?.name ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => toast.success(t("automationRules.deleted")) })}
      >
        {t("automationRules.confirmDeleteMessage")}
      </ConfirmDialog>
      <Table size="small" aria-label={t("automationRules.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("automationRules.table.name")}</TableCell>
            <TableCell>{t("automationRules.table.trigger")}</TableCell>
            <TableCell>{t("automationRules.table.actions")}</TableCell>
            <TableCell>{t("automationRules.table.enabled")}</TableCell>
            <TableCell align="center" sx={ROW_ACTIONS_SX}>
              {t("automationRules.table.options")}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rules.map((rule) => (
            <TableRow key={rule.id}>
              <TableCell>{rule.name}</TableCell>
              <TableCell>
                {t(`automationRules.triggers.${rule.trigger}`)}
                {rule.idleMinutes ? ` (${rule.idleMinutes} min)` : ""}
              </TableCell>
              <TableCell>{rule.actions.map((a) => t(`macros.actionTypes.${a.type}`)).join(" · ")}</TableCell>
              <TableCell>
                <Switch
                  checked={rule.enabled}
                  onChange={(e) => enable.mutate({ id: rule.id, enabled: e.target.checked })}
                  slotProps={{ input: { "aria-label": t("automationRules.enableItem", { name: rule.name }) } }}
                />
              </TableCell>
              <TableCell align="center" sx={ROW_ACTIONS_SX}>
                <IconButton
                  size="small"
                  aria-label={t("automationRules.logItem", { name: rule.name })}
                  onClick={() => setLogOf(rule)}
                >
                  <ListAlt />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t("common.editItem", { name: rule.name })}
                  onClick={() => setModal({ open: true, rule })}
                >
                  <Edit />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t("common.deleteItem", { name: rule.name })}
                  onClick={() => setDeleting(rule)}
                >
                  <DeleteOutline />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
          {!isLoading && rules.length === 0 && (
            <TableRow>
              <TableCell colSpan={5}>{t("automationRules.empty")}</TableCell>
            </TableRow>
          )}
          {isLoading && <TableLoadingRow columns={5} />}
        </TableBody>
      </Table>
    </PageContainer>
  );
}
