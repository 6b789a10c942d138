import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import type { Queue } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { PageContainer } from "../../../components/ui/page-container";
import { ROW_ACTIONS_SX } from "../../../components/ui/row-actions";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { toast } from "../../../lib/toast";
import { useDeleteQueue } from "../api/delete-queue";
import { useQueues } from "../api/get-queues";
import { OpenNowChip } from "../components/open-now-chip";
import { QueueModal } from "../components/queue-modal";

export default function QueuesPage() {
  const { t } = useTranslation();
  const { data: queues = [], isLoading } = useQueues();
  const [modal, setModal] = useState<{ open: boolean; queue: Queue | null }>({ open: false, queue: null });
  const [deleting, setDeleting] = useState<Queue | null>(null);
  const remove = useDeleteQueue();

  return (
    <PageContainer
      title={t("queues.title")}
      actions={
        <Button variant="contained" onClick={() => setModal({ open: true, queue: null })}>
          {t("queues.buttons.add")}
        </Button>
      }
    >
      <QueueModal open={modal.open} queue={modal.queue} onClose={() => setModal({ open: false, queue: null })} />
      <ConfirmDialog
        open={!!deleting}
        title={t("queues.confirmationModal.deleteTitle", { name: deleting?.name ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => toast.success(t("queues.toasts.deleted")) })}
      >
        {t("queues.confirmationModal.deleteMessage")}
      </ConfirmDialog>
      <Table size="small" aria-label={t("queues.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("queues.table.name")}</TableCell>
            <TableCell align="center">{t("queues.table.color")}</TableCell>
            <TableCell>{t("queues.table.greeting")}</TableCell>
            <TableCell>{t("businessHours.column")}</TableCell>
            <TableCell align="center" sx={ROW_ACTIONS_SX}>
              {t("queues.table.actions")}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {queues.map((queue) => (
            <TableRow key={queue.id}>
              <TableCell>{queue.name}</TableCell>
              <TableCell align="center">
                <Box
                  role="img"
                  aria-label={queue.color}
                  sx={{
                    width: 60,
                    height: 20,
                    mx: "auto",
                    borderRadius: 1,
                    bgcolor: queue.color,
                    border: 1,
                    borderColor: "divider",
                  }}
                />
              </TableCell>
              <TableCell sx={{ maxWidth: 300, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
                {queue.greetingMessage}
              </TableCell>
              <TableCell>
                <OpenNowChip schedule={queue.schedule ?? null} />
              </TableCell>
              <TableCell align="center" sx={ROW_ACTIONS_SX}>
                <IconButton
                  size="small"
                  aria-label={t("common.editItem", { name: queue.name })}
                  onClick={() => setModal({ open: true, queue })}
                >
                  <Edit />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t("common.deleteItem", { name: queue.name })}
                  onClick={() => setDeleting(queue)}
                >
                  <DeleteOutline />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
          {isLoading && <TableLoadingRow columns={5} />}
        </TableBody>
      </Table>
    </PageContainer>
  );
}
