export { useReadMentionsOnOpen } from "./api/get-mentions";
export { NotificationsBell } from "./components/notifications-bell";
export { useMentionHandler } from "./hooks/use-mention-handler";
export { useNotificationHandlers } from "./hooks/use-notification-handlers";
export { usePushSync } from "./hooks/use-push-sync";
export { unsubscribePush } from "./utils/push-client";
