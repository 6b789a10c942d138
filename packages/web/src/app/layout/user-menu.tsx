import AccountCircle from "@mui/icons-material/AccountCircle";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { lazyNamed, OnDemand } from "../../components/ui/on-demand";
import { unsubscribePush } from "../../features/notifications";
import { AwayMenuItem } from "../../features/routing/away-menu-item";
import { useAuth } from "../../lib/auth";

const AppearanceDialog = lazyNamed(() => import("./appearance-dialog"), "AppearanceDialog");
const UserModal = lazyNamed(() => import("../../features/users/components/user-modal"), "UserModal");
const TwoFactorDialog = lazyNamed(() => import("../../features/two-factor/components/two-factor-dialog"), "TwoFactorDialog");
const SessionsDialog = lazyNamed(() => import("../../features/privacy/components/sessions-dialog"), "SessionsDialog");
const NotificationPreferencesDialog = lazyNamed(
  () => import("../../features/notifications/components/notification-preferences-dialog"),
  "NotificationPreferencesDialog",
);

export function UserMenu() {
  const { t } = useTranslation();
  const { user, logout } = useAuth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);
  const [notificationsOpen, setNotificationsOpen] = useState(false);
  const [appearanceOpen, setAppearanceOpen] = useState(false);
  const [sessionsOpen, setSessionsOpen] = useState(false);
  const [twoFactorOpen, setTwoFactorOpen] = useState(false);
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t("mainDrawer.appBar.user.menu")}
        aria-haspopup="menu"
        aria-controls={anchor ? "user-menu" : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <AccountCircle />
      </IconButton>
      <Menu id="user-menu" anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setProfileOpen(true);
          }}
        >
          {t("mainDrawer.appBar.user.profile")}
        </MenuItem>
        <AwayMenuItem onDone={() => setAnchor(null)} />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setNotificationsOpen(true);
          }}
        >
          {t("notificationPreferences.menu")}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setAppearanceOpen(true);
          }}
        >
          {t("appearance.menu")}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setSessionsOpen(true);
          }}
        >
          {t("sessions.menu")}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setTwoFactorOpen(true);
          }}
        >
          {t("twoFactor.menu")}
        </MenuItem>
        <MenuItem
          onClick={async () => {
            setAnchor(null);
            // A shared computer: the next person must not receive this user's pushes.
            await unsubscribePush().catch(() => undefined);
            logout();
          }}
        >
          {t("mainDrawer.appBar.user.logout")}
        </MenuItem>
      </Menu>
      <OnDemand when={notificationsOpen}>
        <NotificationPreferencesDialog open={notificationsOpen} onClose={() => setNotificationsOpen(false)} />
      </OnDemand>
      <OnDemand when={sessionsOpen}>
        <SessionsDialog open={sessionsOpen} onClose={() => setSessionsOpen(false)} />
      </OnDemand>
      <OnDemand when={twoFactorOpen}>
        <TwoFactorDialog open={twoFactorOpen} onClose={() => setTwoFactorOpen(false)} />
      </OnDemand>
      <OnDemand when={appearanceOpen}>
        <AppearanceDialog open={appearanceOpen} onClose={() => setAppearanceOpen(false)} />
      </OnDemand>
      {user && (
        <OnDemand when={profileOpen}>
          <UserModal open={profileOpen} onClose={() => setProfileOpen(false)} user={user} />
        </OnDemand>
      )}
    </>
  );
}
