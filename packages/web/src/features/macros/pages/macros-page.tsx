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
import { can, type Macro } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { PageContainer } from "../../../components/ui/page-container";
import { ROW_ACTIONS_SX } from "../../../components/ui/row-actions";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { useAuth } from "../../../lib/auth";
import { toast } from "../../../lib/toast";
import { useDeleteMacro, useMacros } from "../api/macros-api";
import { MacroModal } from "../components/macro-modal";

/** Issue 23 §2: the user's own macros and the shared ones (written by whom has macros:manage). */
export default function MacrosPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { data: macros = [], isLoading } = useMacros();
  const [modal, setModal] = useState<{ open: boolean; macro: Macro | null }>({ open: false, macro: null });
  const [deleting, setDeleting] = useState<Macro | null>(null);
  const remove = useDeleteMacro();
  const editable = (macro: Macro) => !macro.shared || can(user, "macros:manage");

  return (
    <PageContainer
      title={t("macros.title")}
      actions={
        <Button variant="contained" onClick={() => setModal({ open: true, macro: null })}>
          {t("macros.buttons.add")}
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t("macros.intro")}
      </Typography>
      <MacroModal open={modal.open} macro={modal.macro} onClose={() => setModal({ open: false, macro: null })} />
      <ConfirmDialog
        open={!!deleting}
        title={t("macros.confirmationModal.deleteTitle", { name: deleting?.name ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => toast.success(t("macros.toasts.deleted")) })}
      >
        {t("macros.confirmationModal.deleteMessage")}
      </ConfirmDialog>
      <Table size="small" aria-label={t("macros.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("macros.table.name")}</TableCell>
            <TableCell>{t("macros.table.scope")}</TableCell>
            <TableCell>{t("macros.table.actions")}</TableCell>
            <TableCell align="center" sx={ROW_ACTIONS_SX}>
              {t("macros.table.options")}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {macros.map((macro) => (
            <TableRow key={macro.id}>
              <TableCell>{macro.name}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  variant="outlined"
                  color={macro.shared ? "primary" : "default"}
                  label={macro.shared ? t("macros.scope.shared") : t("macros.scope.personal")}
                />
              </TableCell>
              <TableCell>{macro.actions.map((a) => t(`macros.actionTypes.${a.type}`)).join(" · ")}</TableCell>
              <TableCell align="center" sx={ROW_ACTIONS_SX}>
                {editable(macro) && (
                  <>
                    <IconButton
                      size="small"
                      aria-label={t("common.editItem", { name: macro.name })}
                      onClick={() => setModal({ open: true, macro })}
                    >
                      <Edit />
                    </IconButton>
                    <IconButton
                      size="small"
                      aria-label={t("common.deleteItem", { name: macro.name })}
                      onClick={() => setDeleting(macro)}
                    >
                      <DeleteOutline />
                    </IconButton>
                  </>
                )}
              </TableCell>
            </TableRow>
          ))}
          {!isLoading && macros.length === 0 && (
            <TableRow>
              <TableCell colSpan={4}>{t("macros.empty")}</TableCell>
            </TableRow>
          )}
          {isLoading && <TableLoadingRow columns={4} />}
        </TableBody>
      </Table>
    </PageContainer>
  );
}
