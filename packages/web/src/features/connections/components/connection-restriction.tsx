import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Typography from "@mui/material/Typography";
import { newChatBlock, type ConnectionRestriction as Restriction, restrictionNeedsAttention } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

/** "1 Dec 2026, 10:00" in the screen's language and the browser's time zone. */
const formatWhen = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

/**
 * What WhatsApp restricts on the number (admins only): the time-lock on new chats and until when,
 * the monthly cap with how much is used, and what Zapdesk does meanwhile (automatic messages that
 * would open a chat wait; answers to customers who wrote go). With nothing to act on, only the
 * month's usage of new chats.
 */
export function ConnectionRestriction({ restriction, connectionName }: { restriction: Restriction; connectionName: string }) {
  const { t, i18n } = useTranslation();
  const now = new Date();
  const block = newChatBlock(restriction, now);
  const cap = restriction.newChatCap;
  const lock = block?.kind === "timeLock" ? restriction.timeLock : null;
  const quota =
    cap && cap.used !== null && cap.total !== null
      ? t("connections.restriction.quota", { used: cap.used, total: cap.total })
      : "";
  const cycle = cap?.cycleEndsAt
    ? t("connections.restriction.cycleEnds", { when: formatWhen(cap.cycleEndsAt, i18n.language) })
    : "";
  if (!restrictionNeedsAttention(restriction, now)) {
    // Nothing to act on: how much of the month's new chats is used, for the record.
    return quota ? (
      <Typography
        variant="caption"
        color="text.secondary"
        aria-label={t("connections.restriction.label", { name: connectionName })}
      >
        {t("connections.restriction.usage", { quota })} {cycle}
      </Typography>
    ) : null;
  }
  return (
    <Alert
      severity={block ? "error" : "warning"}
      variant="outlined"
      aria-label={t("connections.restriction.label", { name: connectionName })}
      sx={{ py: 0 }}
    >
      {lock && (
        <>
          <AlertTitle sx={{ mb: 0 }}>
            {lock.endsAt
              ? t("connections.restriction.timeLock.titleUntil", { when: formatWhen(lock.endsAt, i18n.language) })
              : t("connections.restriction.timeLock.title")}
          </AlertTitle>
          {t("connections.restriction.timeLock.why", { type: lock.enforcementType })}
        </>
      )}
      {!lock && block?.kind === "newChatCap" && (
        <AlertTitle sx={{ mb: 0 }}>{t("connections.restriction.capped.title", { quota })}</AlertTitle>
      )}
      {!block && cap && <AlertTitle sx={{ mb: 0 }}>{t("connections.restriction.warning.title", { quota })}</AlertTitle>}
      {block ? t("connections.restriction.held") : t("connections.restriction.warning.fix")} {cycle}
    </Alert>
  );
}

/** Whether the row has something to show about the restriction (an alert, or the month's usage). */
export function restrictionShown(restriction: Restriction | null): restriction is Restriction {
  const cap = restriction?.newChatCap;
  return !!restriction && (restrictionNeedsAttention(restriction, new Date()) || (cap?.used != null && cap.total != null));
}
