import ChevronLeftIcon from "@mui/icons-material/ChevronLeft";
import MenuIcon from "@mui/icons-material/Menu";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import { LanguageSwitch } from "../../components/ui/language-switch";
import { NotificationsBell, usePushSync } from "../../features/notifications";
import { useAwayReporting } from "../../features/routing/use-away";
import { KeyboardShortcuts } from "../../features/shortcuts";
import { useRealtimeSync } from "../../lib/realtime-sync";
import { DrawerItems } from "./drawer-items";
import { useTicketEvents } from "./use-ticket-events";
import { UserMenu } from "./user-menu";

const DRAWER_WIDTH = 240;
const CLOSED_WIDTH = 64;

export function MainLayout() {
  const { t } = useTranslation();
  // Spec §2: open by default above 600 px, a temporary drawer on narrow screens.
  const wide = useMediaQuery("(min-width:600px)", { noSsr: true });
  const [open, setOpen] = useState(wide);
  useEffect(() => setOpen(wide), [wide]);
  useRealtimeSync(useTicketEvents());
  usePushSync();
  useAwayReporting(true);

  const width = open ? DRAWER_WIDTH : CLOSED_WIDTH;
  const drawerContent = (
    <>
      <Toolbar sx={{ justifyContent: "flex-end", display: open ? "flex" : "none" }}>
        <IconButton onClick={() => setOpen(false)} aria-label={t("mainDrawer.close")}>
          <ChevronLeftIcon />
        </IconButton>
      </Toolbar>
      <Divider />
      <DrawerItems onNavigate={wide ? undefined : () => setOpen(false)} />
    </>
  );

  return (
    <Box sx={{ display: "flex", height: "100vh" }}>
      <AppBar position="fixed" sx={{ zIndex: (theme) => (wide ? theme.zIndex.drawer + 1 : theme.zIndex.appBar) }}>
        <Toolbar>
          <IconButton
            color="inherit"
            edge="start"
            aria-label={open ? t("mainDrawer.close") : t("mainDrawer.open")}
            aria-expanded={open}
            aria-controls="main-drawer"
            onClick={() => setOpen((v) => !v)}
            sx={{ mr: 2 }}
          >
            <MenuIcon />
          </IconButton>
          <Typography component="p" variant="h6" noWrap sx={{ flexGrow: 1 }}>
            {t("mainDrawer.appBar.title")}
          </Typography>
          <LanguageSwitch />
          <NotificationsBell />
          <UserMenu />
        </Toolbar>
      </AppBar>
      {wide ? (
        <Drawer
          id="main-drawer"
          variant="permanent"
          sx={{
            width,
            flexShrink: 0,
            "& .MuiDrawer-paper": { width, overflowX: "hidden", transition: "width 200ms", boxSizing: "border-box" },
          }}
        >
          <Toolbar />
          {drawerContent}
        </Drawer>
      ) : (
        <Drawer
          id="main-drawer"
          variant="temporary"
          open={open}
          onClose={() => setOpen(false)}
          sx={{ "& .MuiDrawer-paper": { width: DRAWER_WIDTH } }}
        >
          {drawerContent}
        </Drawer>
      )}
      <Box component="main" sx={{ flexGrow: 1, display: "flex", flexDirection: "column", minWidth: 0 }}>
        <Toolbar />
        <Box sx={{ flex: 1, minHeight: 0 }}>
          <Outlet />
        </Box>
      </Box>
      <KeyboardShortcuts />
    </Box>
  );
}
