export { NotificationsBell } from "./components/notifications-bell";
export { useNotificationHandlers } from "./hooks/use-notification-handlers";
