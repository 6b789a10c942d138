import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { PageContainer } from "../../components/ui/page-container";

/** The ticket panes arrive with Web app II; the route exists so links and redirects already work. */
export default function TicketsPlaceholderPage() {
  const { t } = useTranslation();
  return (
    <PageContainer title={t("mainDrawer.listItems.tickets")}>
      <Typography sx={{ p: 2 }}>{t("ticketsManager.noTicketSelected")}</Typography>
    </PageContainer>
  );
}
