import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import type { Tag } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { PageContainer } from "../../../components/ui/page-container";
import { ROW_ACTIONS_SX } from "../../../components/ui/row-actions";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { toast } from "../../../lib/toast";
import { useDeleteTag, useTags } from "../api/tags-api";
import { TagChip } from "../components/tag-chip";
import { TagModal } from "../components/tag-modal";

/** Admins' list of tags (issue 11): add, rename, recolour, delete. */
export default function TagsPage() {
  const { t } = useTranslation();
  const { data: tags = [], isLoading } = useTags();
  const [modal, setModal] = useState<{ open: boolean; tag: Tag | null }>({ open: false, tag: null });
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const remove = useDeleteTag();

  return (
    <PageContainer
      title={t("tags.title")}
      actions={
        <Button variant="contained" onClick={() => setModal({ open: true, tag: null })}>
          {t("tags.buttons.add")}
        </Button>
      }
    >
      <TagModal open={modal.open} tag={modal.tag} onClose={() => setModal({ open: false, tag: null })} />
      <ConfirmDialog
        open={!!deleting}
        title={t("tags.confirmationModal.deleteTitle", { name: deleting?.name ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => toast.success(t("tags.toasts.deleted")) })}
      >
        {t("tags.confirmationModal.deleteMessage")}
      </ConfirmDialog>
      <Table size="small" aria-label={t("tags.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("tags.table.name")}</TableCell>
            <TableCell>{t("tags.table.color")}</TableCell>
            <TableCell align="center" sx={ROW_ACTIONS_SX}>
              {t("tags.table.actions")}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {tags.map((tag) => (
            <TableRow key={tag.id}>
              <TableCell>
                <TagChip tag={tag} />
              </TableCell>
              <TableCell>{tag.color}</TableCell>
              <TableCell align="center" sx={ROW_ACTIONS_SX}>
                <IconButton
                  size="small"
                  aria-label={t("common.editItem", { name: tag.name })}
                  onClick={() => setModal({ open: true, tag })}
                >
                  <Edit />
                </IconButton>
                <IconButton size="small" aria-label={t("common.deleteItem", { name: tag.name })} onClick={() => setDeleting(tag)}>
                  <DeleteOutline />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
          {!isLoading && tags.length === 0 && (
            <TableRow>
              <TableCell colSpan={3}>{t("tags.empty")}</TableCell>
            </TableRow>
          )}
          {isLoading && <TableLoadingRow columns={3} />}
        </TableBody>
      </Table>
    </PageContainer>
  );
}
