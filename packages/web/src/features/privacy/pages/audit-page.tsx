import DownloadIcon from "@mui/icons-material/Download";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry, type AuditFilter, type User } from "@zapdesk/core";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { PageContainer } from "../../../components/ui/page-container";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { ApiError, api } from "../../../lib/api-client";
import { toast } from "../../../lib/toast";
import { downloadAudit, useAudit } from "../api/privacy";

/** A local day's start or end as an instant (the date inputs give days). */
const dayBound = (day: string, end: boolean) =>
  day ? new Date(`${day}T${end ? "23:59:59.999" : "00:00:00"}`).toISOString() : undefined;

function Details({ entry }: { entry: AuditEntry }) {
  const text = Object.keys(entry.details).length ? JSON.stringify(entry.details) : "";
  return (
    <Typography variant="caption" sx={{ wordBreak: "break-word", fontFamily: "monospace" }}>
      {text}
    </Typography>
  );
}

/** Issue 22 §4: who did what, from where (admins, `audit:view`); read-only, filtered, exported as CSV. */
export default function AuditPage() {
  const { t, i18n } = useTranslation();
  const [userId, setUserId] = useState("");
  const [action, setAction] = useState<AuditAction | "">("");
  const [targetType, setTargetType] = useState("");
  const [targetId, setTargetId] = useState("");
  const [fromDay, setFromDay] = useState("");
  const [toDay, setToDay] = useState("");
  const filter: AuditFilter = useMemo(
    () => ({
      userId: userId ? Number(userId) : undefined,
      action: action || undefined,
      targetType: targetType.trim() || undefined,
      targetId: targetId.trim() || undefined,
      from: dayBound(fromDay, false),
      to: dayBound(toDay, true),
    }),
    [userId, action, targetType, targetId, fromDay, toDay],
  );
  const badRange = !!fromDay && !!toDay && fromDay > toDay;
  const audit = useAudit(filter, !badRange);
  const users = useQuery({
    queryKey: ["audit", "users"],
    queryFn: () => api.get<{ users: User[] }>("/users", { pageNumber: 1 }),
  });
  const entries = audit.data?.pages.flatMap((p) => p.entries) ?? [];
  const [exporting, setExporting] = useState(false);
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  const actionName = (name: string) => t(`audit.actions.${name}`, { defaultValue: name });

  async function exportCsv() {
    setExporting(true);
    try {
      await downloadAudit(filter);
    } catch (error) {
      toast.error(error instanceof ApiError ? t(`backendErrors.${error.code}`, { defaultValue: error.message }) : String(error));
    } finally {
      setExporting(false);
    }
  }

  return (
    <PageContainer
      title={t("audit.title")}
      actions={
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={exportCsv} disabled={exporting || badRange}>
          {t("audit.export")}
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ px: 1 }}>
        {t("audit.intro")}
      </Typography>
      <Stack direction="row" sx={{ gap: 1, flexWrap: "wrap" }} role="search" aria-label={t("audit.filters")}>
        <TextField
          select
          size="small"
          label={t("audit.filter.user")}
          value={userId}
          onChange={(e) => setUserId(e.target.value)}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="">{t("audit.filter.any")}</MenuItem>
          {(users.data?.users ?? []).map((u) => (
            <MenuItem key={u.id} value={String(u.id)}>
              {u.name}
            </MenuItem>
          ))}
          {userId && !users.data?.users.some((u) => String(u.id) === userId) && <MenuItem value={userId}>#{userId}</MenuItem>}
        </TextField>
        <TextField
          select
          size="small"
          label={t("audit.filter.action")}
          value={action}
          onChange={(e) => setAction(e.target.value as AuditAction | "")}
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">{t("audit.filter.any")}</MenuItem>
          {AUDIT_ACTIONS.map((name) => (
            <MenuItem key={name} value={name}>
              {actionName(name)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={t("audit.filter.targetType")}
          value={targetType}
          onChange={(e) => setTargetType(e.target.value)}
          sx={{ width: 140 }}
        />
        <TextField
          size="small"
          label={t("audit.filter.targetId")}
          value={targetId}
          onChange={(e) => setTargetId(e.target.value)}
          sx={{ width: 140 }}
        />
        <TextField
          size="small"
          type="date"
          label={t("audit.filter.from")}
          value={fromDay}
          onChange={(e) => setFromDay(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label={t("audit.filter.to")}
          value={toDay}
          onChange={(e) => setToDay(e.target.value)}
          error={badRange}
          helperText={badRange ? t("backendErrors.ERR_AUDIT_RANGE") : undefined}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Stack>
      <Table size="small" aria-label={t("audit.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("audit.table.when")}</TableCell>
            <TableCell>{t("audit.table.who")}</TableCell>
            <TableCell>{t("audit.table.action")}</TableCell>
            <TableCell>{t("audit.table.target")}</TableCell>
            <TableCell>{t("audit.table.details")}</TableCell>
            <TableCell>{t("audit.table.from")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {audit.isLoading && !badRange && <TableLoadingRow columns={6} />}
          {!audit.isLoading && entries.length === 0 && (
            <TableRow>
              <TableCell colSpan={6}>{t("audit.empty")}</TableCell>
            </TableRow>
          )}
          {entries.map((entry) => (
            <TableRow key={entry.id}>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{when(entry.createdAt)}</TableCell>
              <TableCell>
                {entry.userId !== null ? (
                  <Link component="button" type="button" onClick={() => setUserId(String(entry.userId))} title={entry.userEmail}>
                    {entry.userName || entry.userEmail || `#${entry.userId}`}
                  </Link>
                ) : (
                  entry.userEmail || t("audit.nobody")
                )}
              </TableCell>
              <TableCell>{actionName(entry.action)}</TableCell>
              <TableCell>{entry.targetType ? `${entry.targetType}${entry.targetId ? ` #${entry.targetId}` : ""}` : ""}</TableCell>
              <TableCell>
                <Details entry={entry} />
              </TableCell>
              <TableCell title={entry.userAgent}>{entry.ip}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {audit.hasNextPage && (
        <Button onClick={() => audit.fetchNextPage()} disabled={audit.isFetchingNextPage} sx={{ alignSelf: "center" }}>
          {t("audit.more")}
        </Button>
      )}
    </PageContainer>
  );
}
