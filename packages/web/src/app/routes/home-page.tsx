import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { PageContainer } from "../../components/ui/page-container";
import { useAuth } from "../../lib/auth";

/** The dashboard's counters and charts arrive with Web app II; until then "/" greets the user. */
export default function HomePage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <PageContainer title={t("mainDrawer.listItems.dashboard")}>
      <Typography sx={{ p: 2 }}>{t("home.welcome", { name: user?.name ?? "" })}</Typography>
    </PageContainer>
  );
}
