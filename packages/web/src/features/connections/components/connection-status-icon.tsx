import CheckCircle from "@mui/icons-material/CheckCircle";
import CropFree from "@mui/icons-material/CropFree";
import SignalCellular4Bar from "@mui/icons-material/SignalCellular4Bar";
import SignalCellularConnectedNoInternet0Bar from "@mui/icons-material/SignalCellularConnectedNoInternet0Bar";
import SignalCellularConnectedNoInternet2Bar from "@mui/icons-material/SignalCellularConnectedNoInternet2Bar";
import CircularProgress from "@mui/material/CircularProgress";
import Tooltip from "@mui/material/Tooltip";
import type { ConnectionStatus } from "@zapdesk/core";
import type { ReactElement } from "react";
import { useTranslation } from "react-i18next";

const ICONS: Record<ConnectionStatus, ReactElement> = {
  DISCONNECTED: <SignalCellularConnectedNoInternet0Bar color="error" />,
  OPENING: <CircularProgress size={24} />,
  qrcode: <CropFree />,
  CONNECTED: <SignalCellular4Bar sx={{ color: "success.main" }} />,
  PAIRING: <SignalCellularConnectedNoInternet2Bar color="warning" />,
  TIMEOUT: <SignalCellularConnectedNoInternet2Bar color="error" />,
};

/** Spec §4: each status has an icon and a tooltip; the label is also given to screen readers. */
export function ConnectionStatusIcon({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation();
  const label = t(`connections.status.${status}.title`);
  return (
    <Tooltip title={t(`connections.status.${status}.content`)} describeChild>
      <span role="img" aria-label={label} style={{ display: "inline-flex" }}>
        {ICONS[status]}
      </span>
    </Tooltip>
  );
}

export { CheckCircle as DefaultIcon };
