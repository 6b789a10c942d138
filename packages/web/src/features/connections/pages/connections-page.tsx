import Button from "@mui/material/Button";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import useMediaQuery from "@mui/material/useMediaQuery";
import { type Connection, can } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { PageContainer } from "../../../components/ui/page-container";
import { ROW_ACTIONS_SX } from "../../../components/ui/row-actions";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { useAuth } from "../../../lib/auth";
import { toast } from "../../../lib/toast";
import { MenuEditorDialog } from "../../menus";
import { useDeleteWhatsapp } from "../api/delete-whatsapp";
import { useDisconnectSession } from "../api/disconnect-session";
import { useWhatsapps } from "../api/get-whatsapps";
import { ConnectionModal } from "../components/connection-modal";
import { CONNECTION_COLUMNS, ConnectionRow, type ConnectionRowActions } from "../components/connection-row";
import { CustomerSimulator } from "../components/customer-simulator";
import { NewSessionDialog } from "../components/new-session-dialog";
import { QrCodeDialog } from "../components/qr-code-dialog";

/** Health figures (last event, backlog) move without a session event: read the list again while the page is open. */
export const HEALTH_REFRESH_MS = 15_000;

type Confirm = { kind: "delete" | "disconnect"; connection: Connection } | null;

export default function ConnectionsPage() {
  const { t } = useTranslation();
  const { data: connections = [], isLoading } = useWhatsapps({ refetchInterval: HEALTH_REFRESH_MS });
  const [modal, setModal] = useState<{ open: boolean; id?: number }>({ open: false });
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [pairingFor, setPairingFor] = useState<Connection | undefined>();
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [simulating, setSimulating] = useState<number | null>(null);
  const [menuFor, setMenuFor] = useState<number | null>(null);
  const { user } = useAuth();
  // A phone: the session's buttons sit in the pinned actions column (ConnectionRow).
  const narrow = !useMediaQuery("(min-width:600px)", { noSsr: true });
  const remove = useDeleteWhatsapp();
  const disconnect = useDisconnectSession();

  const onConfirm = () => {
    if (!confirm) return;
    if (confirm.kind === "delete")
      remove.mutate(confirm.connection.id, { onSuccess: () => toast.success(t("connections.toasts.deleted")) });
    else disconnect.mutate(confirm.connection.id);
  };

  // A new Cloud connection stays open, now editing: its webhook URL exists only once it is saved.
  const onSaved = (connection: Connection, created: boolean) =>
    setModal(created && connection.provider === "cloud" ? { open: true, id: connection.id } : { open: false });

  const actions: ConnectionRowActions = {
    onEdit: (connection) => setModal({ open: true, id: connection.id }),
    onDelete: (connection) => setConfirm({ kind: "delete", connection }),
    onDisconnect: (connection) => setConfirm({ kind: "disconnect", connection }),
    onShowQr: (connection) => setQrFor(connection.id),
    onChoosePairing: setPairingFor,
    onSimulate: can(user, "simulator:use") ? (connection) => setSimulating(connection.id) : undefined,
    onEditMenu: (connection) => setMenuFor(connection.id),
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
      <ConnectionModal open={modal.open} connectionId={modal.id} onClose={() => setModal({ open: false })} onSaved={onSaved} />
      <QrCodeDialog connection={connections.find((c) => c.id === qrFor)} onClose={() => setQrFor(null)} />
      <CustomerSimulator connection={connections.find((c) => c.id === simulating)} onClose={() => setSimulating(null)} />
      <MenuEditorDialog connection={connections.find((c) => c.id === menuFor)} onClose={() => setMenuFor(null)} />
      <NewSessionDialog
        connection={pairingFor}
        onClose={() => setPairingFor(undefined)}
        onRequested={(connection) => {
          setPairingFor(undefined);
          setQrFor(connection.id);
        }}
      />
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
            <TableCell>{t("connections.table.provider")}</TableCell>
            <TableCell align="center">{t("connections.table.status")}</TableCell>
            {!narrow && <TableCell align="center">{t("connections.table.session")}</TableCell>}
            <TableCell align="center">{t("connections.table.health")}</TableCell>
            <TableCell align="center">{t("connections.table.lastUpdate")}</TableCell>
            <TableCell align="center">{t("connections.table.default")}</TableCell>
            <TableCell align="center" sx={ROW_ACTIONS_SX}>
              {t("connections.table.actions")}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {connections.map((connection) => (
            <ConnectionRow key={connection.id} connection={connection} actions={actions} narrow={narrow} />
          ))}
          {isLoading && <TableLoadingRow columns={CONNECTION_COLUMNS} />}
        </TableBody>
      </Table>
    </PageContainer>
  );
}
