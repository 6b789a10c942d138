import MonitorHeartOutlined from "@mui/icons-material/MonitorHeartOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Popover from "@mui/material/Popover";
import Typography from "@mui/material/Typography";
import type { ConnectionHealth as Health } from "@zapdesk/core";
import { type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatRelative } from "./relative-time";

/** A backlog older than this means events wait longer than the pipeline normally takes. */
const STALE_BACKLOG_MS = 60_000;

function healthColor(health: Health, now: number): "success" | "warning" | "error" {
  const errorAt = health.lastErrorAt ? new Date(health.lastErrorAt).getTime() : 0;
  const eventAt = health.lastEventAt ? new Date(health.lastEventAt).getTime() : 0;
  if (health.lastError && errorAt >= eventAt) return "error";
  const oldest = health.oldestPendingAt ? new Date(health.oldestPendingAt).getTime() : now;
  if (health.pendingEvents > 0 && now - oldest > STALE_BACKLOG_MS) return "warning";
  // Received while the database was away: safe on disk, not stored yet.
  if (health.spooledEvents > 0) return "warning";
  return "success";
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" sx={{ fontWeight: 500 }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: "break-word" }}>
        {children}
      </Typography>
    </>
  );
}

/** The link's health for the admin: a summary in the row, the figures in a popover. */
export function ConnectionHealth({ health, connectionName }: { health: Health; connectionName: string }) {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const titleId = useId();
  const now = Date.now();
  const ago = (iso: string) => formatRelative(iso, i18n.language, now);
  const summary = health.lastEventAt
    ? t("connections.health.lastEventSummary", { when: ago(health.lastEventAt) })
    : t("connections.health.noEvents");
  return (
    <>
      <Button
        size="small"
        color={healthColor(health, now)}
        startIcon={<MonitorHeartOutlined />}
        aria-label={t("connections.health.button", { name: connectionName, summary })}
        aria-haspopup="dialog"
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ textTransform: "none", whiteSpace: "nowrap" }}
      >
        {summary}
      </Button>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
        transformOrigin={{ vertical: "top", horizontal: "center" }}
        slotProps={{ paper: { role: "dialog", "aria-labelledby": titleId } as object }}
      >
        <Box sx={{ p: 2, maxWidth: 360 }}>
          <Typography id={titleId} variant="subtitle1" component="h3" gutterBottom>
            {t("connections.health.title", { name: connectionName })}
          </Typography>
          <Box component="dl" sx={{ display: "grid", gridTemplateColumns: "auto 1fr", columnGap: 2, rowGap: 0.5, m: 0 }}>
            <Row label={t("connections.health.lastEvent")}>
              {health.lastEventAt ? ago(health.lastEventAt) : t("connections.health.never")}
            </Row>
            <Row label={t("connections.health.pending")}>
              {health.pendingEvents === 0
                ? t("connections.health.nonePending")
                : health.oldestPendingAt
                  ? t("connections.health.pendingSince", { count: health.pendingEvents, when: ago(health.oldestPendingAt) })
                  : String(health.pendingEvents)}
            </Row>
            {health.spooledEvents > 0 && (
              <Row label={t("connections.health.spooled")}>
                {t("connections.health.spooledCount", { count: health.spooledEvents })}
              </Row>
            )}
            <Row label={t("connections.health.reconnects")}>{String(health.reconnectsToday)}</Row>
            <Row label={t("connections.health.lastError")}>
              {health.lastError
                ? health.lastErrorAt
                  ? t("connections.health.errorAt", { error: health.lastError, when: ago(health.lastErrorAt) })
                  : health.lastError
                : t("connections.health.noError")}
            </Row>
          </Box>
        </Box>
      </Popover>
    </>
  );
}
