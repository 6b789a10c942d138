import AccountCircle from "@mui/icons-material/AccountCircle";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { lazyNamed, OnDemand } from "../../components/ui/on-demand";
import { useAuth } from "../../lib/auth";

const UserModal = lazyNamed(() => import("../../features/users/components/user-modal"), "UserModal");

export function UserMenu() {
  const { t } = useTranslation();
  const { user, logout } = useAuth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);
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
        <MenuItem
          onClick={() => {
            setAnchor(null);
            logout();
          }}
        >
          {t("mainDrawer.appBar.user.logout")}
        </MenuItem>
      </Menu>
      {user && (
        <OnDemand when={profileOpen}>
          <UserModal open={profileOpen} onClose={() => setProfileOpen(false)} user={user} />
        </OnDemand>
      )}
    </>
  );
}
