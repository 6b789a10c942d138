import LinkOffIcon from "@mui/icons-material/LinkOff";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { PageContainer } from "../../../components/ui/page-container";
import { usePublicSetting } from "../../../lib/queries/use-public-settings";

/** Design §4: the embedded pages take their URL from settings instead of a hard-coded address. */
export function EmbeddedPage({ titleKey, settingKey }: { titleKey: string; settingKey: "salesPageUrl" | "communityPageUrl" }) {
  const { t } = useTranslation();
  const { value: url, isLoading } = usePublicSetting(settingKey);
  const title = t(titleKey);
  return (
    <PageContainer title={title}>
      {isLoading ? (
        <Box sx={{ display: "grid", placeItems: "center", height: "100%" }}>
          <CircularProgress aria-label={t("common.loading")} />
        </Box>
      ) : url ? (
        <Box component="iframe" src={url} title={title} sx={{ border: 0, width: "100%", height: "100%", minHeight: 480 }} />
      ) : (
        <Stack spacing={1} sx={{ alignItems: "center", justifyContent: "center", height: "100%", p: 4, textAlign: "center" }}>
          <LinkOffIcon color="disabled" sx={{ fontSize: 48 }} />
          <Typography variant="h6" component="p">
            {t("tools.embedded.emptyTitle")}
          </Typography>
          <Typography color="text.secondary">{t("tools.embedded.emptyMessage")}</Typography>
        </Stack>
      )}
    </PageContainer>
  );
}
