import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { ClosingReason } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { PageContainer } from "../../../components/ui/page-container";
import { ROW_ACTIONS_SX } from "../../../components/ui/row-actions";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { toast } from "../../../lib/toast";
import { useClosingReasons, useDeleteClosingReason } from "../api/closing-reasons-api";
import { ClosingReasonModal } from "../components/closing-reason-modal";

/** Issue 23 §6: admins' list of closing reasons (add, rename, ask for a value, archive, delete unused). */
export default function ClosingReasonsPage() {
  const { t } = useTranslation();
  const { data: reasons = [], isLoading } = useClosingReasons();
  const [modal, setModal] = useState<{ open: boolean; reason: ClosingReason | null }>({ open: false, reason: null });
  const [deleting, setDeleting] = useState<ClosingReason | null>(null);
  const remove = useDeleteClosingReason();

  return (
    <PageContainer
      title={t("closingReasons.title")}
      actions={
        <Button variant="contained" onClick={() => setModal({ open: true, reason: null })}>
          {t("closingReasons.buttons.add")}
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t("closingReasons.intro")}
      </Typography>
      <ClosingReasonModal open={modal.open} reason={modal.reason} onClose={() => setModal({ open: false, reason: null })} />
      <ConfirmDialog
        open={!!deleting}
        title={t("closingReasons.confirmationModal.deleteTitle", { name: deleting?.name ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting && remove.mutate(deleting.id, { onSuccess: () => toast.success(t("closingReasons.toasts.deleted")) })
        }
      >
        {t("closingReasons.confirmationModal.deleteMessage")}
      </ConfirmDialog>
      <Table size="small" aria-label={t("closingReasons.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("closingReasons.table.id")}</TableCell>
            <TableCell>{t("closingReasons.table.name")}</TableCell>
            <TableCell>{t("closingReasons.table.asksValue")}</TableCell>
            <TableCell>{t("closingReasons.table.status")}</TableCell>
            <TableCell align="center" sx={ROW_ACTIONS_SX}>
              {t("closingReasons.table.actions")}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {reasons.map((reason) => (
            <TableRow key={reason.id}>
              <TableCell>{reason.id}</TableCell>
              <TableCell>{reason.name}</TableCell>
              <TableCell>{reason.asksValue ? t("closingReasons.table.yes") : t("closingReasons.table.no")}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  label={reason.archived ? t("closingReasons.status.archived") : t("closingReasons.status.active")}
                  color={reason.archived ? "default" : "success"}
                  variant="outlined"
                />
              </TableCell>
              <TableCell align="center" sx={ROW_ACTIONS_SX}>
                <IconButton
                  size="small"
                  aria-label={t("common.editItem", { name: reason.name })}
                  onClick={() => setModal({ open: true, reason })}
                >
                  <Edit />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t("common.deleteItem", { name: reason.name })}
                  onClick={() => setDeleting(reason)}
                >
                  <DeleteOutline />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
          {!isLoading && reasons.length === 0 && (
            <TableRow>
              <TableCell colSpan={5}>{t("closingReasons.empty")}</TableCell>
            </TableRow>
          )}
          {isLoading && <TableLoadingRow columns={5} />}
        </TableBody>
      </Table>
    </PageContainer>
  );
}
