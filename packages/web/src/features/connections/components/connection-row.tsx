import AccountTree from "@mui/icons-material/AccountTree";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import SmsOutlined from "@mui/icons-material/SmsOutlined";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import type { Connection } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { ROW_ACTIONS_SX } from "../../../components/ui/row-actions";
import { ConnectionHealth } from "./connection-health";
import { ConnectionRestriction, restrictionShown } from "./connection-restriction";
import { ConnectionStatusIcon, DefaultIcon } from "./connection-status-icon";
import { SessionActions } from "./session-actions";
import { StatusReason } from "./status-reason";

/** dd/MM/yy HH:mm (spec §2). */
function formatUpdatedAt(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getDate())}/${two(d.getMonth() + 1)}/${two(d.getFullYear() % 100)} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

export const CONNECTION_COLUMNS = 9;

export interface ConnectionRowActions {
  onEdit(connection: Connection): void;
  onDelete(connection: Connection): void;
  onDisconnect(connection: Connection): void;
  onShowQr(connection: Connection): void;
  onChoosePairing(connection: Connection): void;
  /** Issue 20: play a customer of a simulator connection (absent: not offered). */
  onSimulate?(connection: Connection): void;
  /** Issue 23 §3: edit the connection's menu tree (absent: not offered). */
  onEditMenu?(connection: Connection): void;
}

/**
 * One connection, and under it why it is in its status and how to fix it, when the server says.
 * `narrow` (a phone, 390 px): the session's buttons join the row's actions, pinned on screen while
 * the other columns scroll (issue 20), instead of a column of their own that scrolls away.
 */
export function ConnectionRow({
  connection,
  actions,
  narrow = false,
}: {
  connection: Connection;
  actions: ConnectionRowActions;
  narrow?: boolean;
}) {
  const { t } = useTranslation();
  const session = (
    <SessionActions
      connection={connection}
      stacked={narrow}
      onShowQr={() => actions.onShowQr(connection)}
      onDisconnect={() => actions.onDisconnect(connection)}
      onChoosePairing={() => actions.onChoosePairing(connection)}
    />
  );
  const rowActions = (
    <>
      {connection.provider === "simulator" && connection.status === "CONNECTED" && actions.onSimulate && (
        <IconButton
          size="small"
          aria-label={t("connections.simulator.open", { name: connection.name })}
          onClick={() => actions.onSimulate?.(connection)}
        >
          <SmsOutlined />
        </IconButton>
      )}
      {actions.onEditMenu && (
        <IconButton
          size="small"
          aria-label={t("menus.open", { name: connection.name })}
          onClick={() => actions.onEditMenu?.(connection)}
        >
          <AccountTree />
        </IconButton>
      )}
      <IconButton
        size="small"
        aria-label={t("common.editItem", { name: connection.name })}
        onClick={() => actions.onEdit(connection)}
      >
        <Edit />
      </IconButton>
      <IconButton
        size="small"
        aria-label={t("common.deleteItem", { name: connection.name })}
        onClick={() => actions.onDelete(connection)}
      >
        <DeleteOutline />
      </IconButton>
    </>
  );
  const reason = connection.statusReason;
  const restriction = restrictionShown(connection.restriction) ? connection.restriction : null;
  const rowSx = reason || restriction ? { "& > td": { borderBottom: 0 } } : undefined;
  return (
    <>
      <TableRow sx={rowSx}>
        <TableCell align="center">{connection.id}</TableCell>
        <TableCell>{connection.name}</TableCell>
        <TableCell>{t(`connections.providers.${connection.provider}`)}</TableCell>
        <TableCell align="center">
          <ConnectionStatusIcon status={connection.status} />
        </TableCell>
        {!narrow && <TableCell align="center">{session}</TableCell>}
        <TableCell align="center">
          {connection.health && <ConnectionHealth health={connection.health} connectionName={connection.name} />}
        </TableCell>
        <TableCell align="center">{formatUpdatedAt(connection.updatedAt)}</TableCell>
        <TableCell align="center">
          {connection.isDefault && <DefaultIcon color="success" titleAccess={t("connections.table.default")} />}
        </TableCell>
        <TableCell align="center" sx={ROW_ACTIONS_SX}>
          {narrow ? (
            <Stack spacing={0.5} sx={{ alignItems: "center" }}>
              {session}
              <span>{rowActions}</span>
            </Stack>
          ) : (
            rowActions
          )}
        </TableCell>
      </TableRow>
      {reason && (
        <TableRow>
          <TableCell colSpan={CONNECTION_COLUMNS} sx={{ pt: 0 }}>
            <StatusReason reason={reason} connectionName={connection.name} />
          </TableCell>
        </TableRow>
      )}
      {restriction && (
        <TableRow>
          <TableCell colSpan={CONNECTION_COLUMNS} sx={{ pt: 0 }}>
            <ConnectionRestriction restriction={restriction} connectionName={connection.name} />
          </TableCell>
        </TableRow>
      )}
    </>
  );
}
