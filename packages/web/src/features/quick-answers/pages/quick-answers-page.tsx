import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import type { QuickAnswer } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { PageContainer } from "../../../components/ui/page-container";
import { ROW_ACTIONS_SX } from "../../../components/ui/row-actions";
import { SearchField } from "../../../components/ui/search-field";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { useInfiniteScroll } from "../../../components/ui/use-infinite-scroll";
import { toast } from "../../../lib/toast";
import { useDebounce } from "../../../lib/use-debounce";
import { useDeleteQuickAnswer } from "../api/delete-quick-answer";
import { useQuickAnswers } from "../api/get-quick-answers";
import { QuickAnswerModal } from "../components/quick-answer-modal";

export default function QuickAnswersPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const debounced = useDebounce(search);
  const { data, isLoading, hasNextPage, isFetchingNextPage, fetchNextPage } = useQuickAnswers(debounced);
  const answers = data?.pages.flatMap((p) => p.quickAnswers) ?? [];
  const onScroll = useInfiniteScroll({ hasNextPage, isFetching: isFetchingNextPage, fetchNextPage });
  const [modal, setModal] = useState<{ open: boolean; answer: QuickAnswer | null }>({ open: false, answer: null });
  const [deleting, setDeleting] = useState<QuickAnswer | null>(null);
  const remove = useDeleteQuickAnswer();

  return (
    <PageContainer
      title={t("quickAnswers.title")}
      onScroll={onScroll}
      actions={
        <>
          <SearchField value={search} onChange={setSearch} />
          <Button variant="contained" onClick={() => setModal({ open: true, answer: null })}>
            {t("quickAnswers.buttons.add")}
          </Button>
        </>
      }
    >
      <QuickAnswerModal open={modal.open} answer={modal.answer} onClose={() => setModal({ open: false, answer: null })} />
      <ConfirmDialog
        open={!!deleting}
        title={t("quickAnswers.confirmationModal.deleteTitle", { name: deleting?.shortcut ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting && remove.mutate(deleting.id, { onSuccess: () => toast.success(t("quickAnswers.toasts.deleted")) })
        }
      >
        {t("quickAnswers.confirmationModal.deleteMessage")}
      </ConfirmDialog>
      <Table size="small" aria-label={t("quickAnswers.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("quickAnswers.table.shortcut")}</TableCell>
            <TableCell>{t("quickAnswers.table.message")}</TableCell>
            <TableCell align="center" sx={ROW_ACTIONS_SX}>
              {t("quickAnswers.table.actions")}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {answers.map((answer) => (
            <TableRow key={answer.id}>
              <TableCell>{answer.shortcut}</TableCell>
              <TableCell sx={{ maxWidth: 480, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
                {answer.message}
              </TableCell>
              <TableCell align="center" sx={ROW_ACTIONS_SX}>
                <IconButton
                  size="small"
                  aria-label={t("common.editItem", { name: answer.shortcut })}
                  onClick={() => setModal({ open: true, answer })}
                >
                  <Edit />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t("common.deleteItem", { name: answer.shortcut })}
                  onClick={() => setDeleting(answer)}
                >
                  <DeleteOutline />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
          {(isLoading || isFetchingNextPage) && <TableLoadingRow columns={3} />}
        </TableBody>
      </Table>
    </PageContainer>
  );
}
