import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import type { Connection } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { PageContainer } from "../../../components/ui/page-container";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { toast } from "../../../lib/toast";
import { useDeleteWhatsapp } from "../api/delete-whatsapp";
import { useDisconnectSession } from "../api/disconnect-session";
import { useWhatsapps } from "../api/get-whatsapps";
import { ConnectionModal } from "../components/connection-modal";
import { ConnectionStatusIcon, DefaultIcon } from "../components/connection-status-icon";
import { QrCodeDialog } from "../components/qr-code-dialog";
import { SessionActions } from "../components/session-actions";

/** dd/MM/yy HH:mm (spec §2). */
function formatUpdatedAt(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getDate())}/${two(d.getMonth() + 1)}/${two(d.getFullYear() % 100)} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

type Confirm = { kind: "delete" | "disconnect"; connection: Connection } | null;

export default function ConnectionsPage() {
  const { t } = useTranslation();
  const { data: connections = [], isLoading } = useWhatsapps();
  const [modal, setModal] = useState<{ open: boolean; id?: number }>({ open: false });
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const remove = useDeleteWhatsapp();
  const disconnect = useDisconnectSession();

  const onConfirm = () => {
    if (!confirm) return;
    if (confirm.kind === "delete")
      remove.mutate(confirm.connection.id, { onSuccess: () => toast.success(t("connections.toasts.deleted")) });
    else disconnect.mutate(confirm.connection.id);
  };

  return (
    <PageContainer
      title={t("connections.title")}
      actions={
        <Button variant="contained" onClick={() => setModal({ open: true })}>
          {t("connections.buttons.add")}
        </Button>
      }
    >
      <ConnectionModal open={modal.open} connectionId={modal.id} onClose={() => setModal({ open: false })} />
      <QrCodeDialog connection={connections.find((c) => c.id === qrFor)} onClose={() => setQrFor(null)} />
      <ConfirmDialog
        open={!!confirm}
        title={
          confirm?.kind === "delete"
            ? t("connections.confirmationModal.deleteTitle", { name: confirm.connection.name })
            : t("connections.confirmationModal.disconnectTitle", { name: confirm?.connection.name ?? "" })
        }
        onClose={() => setConfirm(null)}
        onConfirm={onConfirm}
      >
        {confirm?.kind === "delete"
          ? t("connections.confirmationModal.deleteMessage")
          : t("connections.confirmationModal.disconnectMessage")}
      </ConfirmDialog>
      <Table size="small" aria-label={t("connections.title")}>
        <TableHead>
          <TableRow>
            <TableCell align="center">{t("connections.table.id")}</TableCell>
            <TableCell>{t("connections.table.name")}</TableCell>
            <TableCell align="center">{t("connections.table.status")}</TableCell>
            <TableCell align="center">{t("connections.table.session")}</TableCell>
            <TableCell align="center">{t("connections.table.lastUpdate")}</TableCell>
            <TableCell align="center">{t("connections.table.default")}</TableCell>
            <TableCell align="center">{t("connections.table.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {connections.map((connection) => (
            <TableRow key={connection.id}>
              <TableCell align="center">{connection.id}</TableCell>
              <TableCell>{connection.name}</TableCell>
              <TableCell align="center">
                <ConnectionStatusIcon status={connection.status} />
              </TableCell>
              <TableCell align="center">
                <SessionActions
                  connection={connection}
                  onShowQr={() => setQrFor(connection.id)}
                  onDisconnect={() => setConfirm({ kind: "disconnect", connection })}
                />
              </TableCell>
              <TableCell align="center">{formatUpdatedAt(connection.updatedAt)}</TableCell>
              <TableCell align="center">
                {connection.isDefault && <DefaultIcon color="success" titleAccess={t("connections.table.default")} />}
              </TableCell>
              <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                <IconButton
                  size="small"
                  aria-label={t("common.editItem", { name: connection.name })}
                  onClick={() => setModal({ open: true, id: connection.id })}
                >
                  <Edit />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t("common.deleteItem", { name: connection.name })}
                  onClick={() => setConfirm({ kind: "delete", connection })}
                >
                  <DeleteOutline />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
          {isLoading && <TableLoadingRow columns={7} />}
        </TableBody>
      </Table>
    </PageContainer>
  );
}
