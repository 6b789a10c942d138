import AccountTreeOutlined from "@mui/icons-material/AccountTreeOutlined";
import AutoModeIcon from "@mui/icons-material/AutoMode";
import BoltIcon from "@mui/icons-material/Bolt";
import CallIcon from "@mui/icons-material/Call";
import ChatIcon from "@mui/icons-material/Chat";
import ContactPhoneOutlined from "@mui/icons-material/ContactPhoneOutlined";
import DashboardOutlined from "@mui/icons-material/DashboardOutlined";
import EventIcon from "@mui/icons-material/Event";
import GroupsIcon from "@mui/icons-material/Groups";
import HistoryIcon from "@mui/icons-material/History";
import Instagram from "@mui/icons-material/Instagram";
import LocalOfferOutlined from "@mui/icons-material/LocalOfferOutlined";
import ManageSearchIcon from "@mui/icons-material/ManageSearch";
import PeopleAltOutlined from "@mui/icons-material/PeopleAltOutlined";
import PermMediaIcon from "@mui/icons-material/PermMedia";
import QuestionAnswerOutlined from "@mui/icons-material/QuestionAnswerOutlined";
import SendIcon from "@mui/icons-material/Send";
import SettingsOutlined from "@mui/icons-material/SettingsOutlined";
import ShoppingCartIcon from "@mui/icons-material/ShoppingCart";
import SmartToyIcon from "@mui/icons-material/SmartToy";
import SmsIcon from "@mui/icons-material/Sms";
import SyncAltIcon from "@mui/icons-material/SyncAlt";
import TaskAltIcon from "@mui/icons-material/TaskAlt";
import WebhookIcon from "@mui/icons-material/Webhook";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import Badge from "@mui/material/Badge";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import ListSubheader from "@mui/material/ListSubheader";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router";
import { useWhatsapps } from "../../features/connections/api/get-whatsapps";
import { mayOpen, SCREENS } from "../../features/shortcuts/screens";
import { useAuth } from "../../lib/auth";
import { useConnectionWarning } from "./use-connection-warning";

interface ItemProps {
  to: string;
  label: string;
  icon: ReactNode;
  onNavigate?(): void;
}

function Item({ to, label, icon, onNavigate }: ItemProps) {
  const { pathname } = useLocation();
  const path = pathname.toLowerCase();
  const target = to.toLowerCase();
  // Exact, or a sub-route (/tickets/12): "/ZDG" must not light up on "/ZDGGroups".
  const selected = path === target || (target !== "/" && path.startsWith(`${target}/`));
  return (
    <ListItemButton
      component={NavLink}
      to={to}
      selected={selected}
      onClick={onNavigate}
      aria-current={selected ? "page" : undefined}
    >
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText primary={label} />
    </ListItemButton>
  );
}

const ADMIN_ICONS: Record<string, ReactNode> = {
  users: <PeopleAltOutlined />,
  connections: <ConnectionsIcon />,
  queues: <AccountTreeOutlined />,
  tags: <LocalOfferOutlined />,
  closingReasons: <TaskAltIcon />,
  settings: <SettingsOutlined />,
  webhooks: <WebhookIcon />,
  audit: <ManageSearchIcon />,
  automationRules: <AutoModeIcon />,
};

function ConnectionsIcon() {
  const { t } = useTranslation();
  const { data } = useWhatsapps();
  const warning = useConnectionWarning(data);
  return (
    <Badge
      badgeContent={warning ? "!" : 0}
      color="error"
      overlap="rectangular"
      slotProps={{ badge: { "aria-label": warning ? t("mainDrawer.connectionWarning") : undefined } }}
    >
      <SyncAltIcon />
    </Badge>
  );
}

export function DrawerItems({ onNavigate }: { onNavigate?(): void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  // Each administration screen shows for whom holds the permission its server routes check.
  const adminScreens = SCREENS.filter((screen) => screen.permission && mayOpen(user, screen));
  const item = (to: string, key: string, icon: ReactNode) => (
    <Item to={to} label={t(`mainDrawer.listItems.${key}`)} icon={icon} onNavigate={onNavigate} />
  );
  return (
    <nav aria-label={t("mainDrawer.navigation")}>
      <List>
        {item("/", "dashboard", <DashboardOutlined />)}
        {item("/tickets", "tickets", <WhatsAppIcon />)}
        {item("/contacts", "contacts", <ContactPhoneOutlined />)}
        {item("/quickAnswers", "quickAnswers", <QuestionAnswerOutlined />)}
        {item("/macros", "macros", <BoltIcon />)}
      </List>
      <List subheader={<ListSubheader component="div">{t("mainDrawer.listItems.tools")}</ListSubheader>}>
        {item("/ZDG", "bulkMessages", <SendIcon />)}
        {item("/ZDGMedia", "bulkMedia", <PermMediaIcon />)}
        {item("/ZDGGroups", "groups", <GroupsIcon />)}
        {item("/InstaDirect", "instaDirect", <Instagram />)}
        {item("/SMS", "sms", <SmsIcon />)}
        {item("/VoiceCall", "voiceCall", <CallIcon />)}
        {item("/ZDGChatbot", "chatbot", <SmartToyIcon />)}
        {item("/ZDGAgendamento", "schedule", <EventIcon />)}
        {item("/ZDGHistorico", "history", <HistoryIcon />)}
        {item("/ZDGComunidade", "licence", <ShoppingCartIcon />)}
        {item("/ZDGPassaporte", "community", <ChatIcon />)}
      </List>
      {adminScreens.length > 0 && (
        <List subheader={<ListSubheader component="div">{t("mainDrawer.listItems.administration")}</ListSubheader>}>
          {adminScreens.map((screen) => (
            <Item
              key={screen.path}
              to={screen.path}
              label={t(`mainDrawer.listItems.${screen.key}`)}
              icon={ADMIN_ICONS[screen.key]}
              onNavigate={onNavigate}
            />
          ))}
        </List>
      )}
    </nav>
  );
}
