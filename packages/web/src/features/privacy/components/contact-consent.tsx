import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { formatDay, formatHourMinute } from "../../../lib/format-time";
import { useContactConsent } from "../api/consent";

const when = (iso: string) => `${formatDay(new Date(iso))} ${formatHourMinute(new Date(iso))}`;

/**
 * Issue 22 §3, on the contact: whether automatic messages reach the customer (an opt-out word stops
 * them until they write again), and what they were asked and answered, newest first. Kept fresh by
 * the `contactConsent` realtime event.
 */
export function ContactConsent({ contactId }: { contactId: number }) {
  const { t } = useTranslation();
  const { data } = useContactConsent(contactId);
  if (!data) return null;
  return (
    <Box
      component="section"
      aria-labelledby={`consent-${contactId}`}
      sx={{ px: 2, pb: 1, display: "flex", flexDirection: "column", gap: 0.5 }}
    >
      <Typography id={`consent-${contactId}`} variant="subtitle2">
        {t("consent.contact.title")}
      </Typography>
      {data.optedOutSince && (
        <Typography variant="body2" role="status" color="warning.dark">
          {t("consent.contact.optedOut", { since: when(data.optedOutSince) })}
        </Typography>
      )}
      {data.records.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t("consent.contact.none")}
        </Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 2 }}>
          {data.records.slice(0, 10).map((record) => (
            <Typography component="li" variant="body2" key={record.id} title={record.messageWid ?? undefined}>
              {t(`consent.kind.${record.kind}`)} · {when(record.createdAt)}
              {(record.queue ?? record.connection) && ` · ${record.queue ?? record.connection}`}
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}
