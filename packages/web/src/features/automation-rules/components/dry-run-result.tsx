import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import type { RuleDryRun } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

/** The dry run's answer: per ticket, each event it would have fired on and what it would have done. */
export function DryRunResult({ result }: { result: RuleDryRun }) {
  const { t } = useTranslation();
  const firings = result.tickets.reduce((sum, ticket) => sum + ticket.firings.length, 0);
  return (
    <section aria-label={t("automationRules.dryRun.title")} data-testid="dry-run-result">
      <Typography variant="subtitle2">{t("automationRules.dryRun.title")}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t("automationRules.dryRun.summary", { events: result.eventsScanned, tickets: result.tickets.length, firings })}
        {result.truncated && ` ${t("automationRules.dryRun.truncated")}`}
      </Typography>
      <List dense>
        {result.tickets.map((ticket) => (
          <ListItem key={ticket.ticketId} alignItems="flex-start">
            <ListItemText
              primary={t("automationRules.dryRun.ticket", { id: ticket.ticketId, name: ticket.contactName })}
              secondary={ticket.firings
                .map(
                  (f) =>
                    `${new Date(f.event.at).toLocaleString()} · ${t(`automationRules.outcomes.${f.outcome}`)}` +
                    (f.event.text ? ` · “${f.event.text}”` : "") +
                    ` → ${f.actions.map((a) => t(`macros.actionTypes.${a.type}`)).join(", ")}`,
                )
                .join("\n")}
              slotProps={{ secondary: { sx: { whiteSpace: "pre-line" } } }}
            />
          </ListItem>
        ))}
      </List>
    </section>
  );
}
