import Box from "@mui/material/Box";
import { useTranslation } from "react-i18next";
import { PageContainer } from "../../../components/ui/page-container";
import chatbotImage from "../assets/chatbot.svg";

export default function ChatbotPage() {
  const { t } = useTranslation();
  return (
    <PageContainer title={t("tools.titles.chatbot")}>
      <Box sx={{ display: "grid", placeItems: "center", p: 2 }}>
        <Box component="img" src={chatbotImage} alt={t("tools.chatbot.imageAlt")} sx={{ maxWidth: "100%", width: 640 }} />
      </Box>
    </PageContainer>
  );
}
