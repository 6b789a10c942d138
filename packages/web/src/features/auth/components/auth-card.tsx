import LockOutlined from "@mui/icons-material/LockOutlined";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Container from "@mui/material/Container";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LanguageSwitch } from "../../../components/ui/language-switch";

/** The frame shared by login and signup, with the footer line of spec §2. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Container component="main" maxWidth="xs" sx={{ py: 6 }}>
      <Paper sx={{ p: 4 }} elevation={3}>
        <Stack sx={{ alignItems: "center" }} spacing={1}>
          <Box sx={{ alignSelf: "flex-end" }}>
            <LanguageSwitch color="primary" />
          </Box>
          <Avatar sx={{ bgcolor: "primary.main" }}>
            <LockOutlined />
          </Avatar>
          <Typography variant="h5" component="h1">
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("mainDrawer.appBar.title")}
          </Typography>
        </Stack>
        {children}
      </Paper>
      <Typography component="footer" variant="body2" color="text.secondary" align="center" sx={{ mt: 4 }}>
        © {new Date().getFullYear()} {t("mainDrawer.appBar.title")}
      </Typography>
    </Container>
  );
}
