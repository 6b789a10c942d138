export { Composer } from "./components/composer";
export { MessageInput } from "./components/message-input";
export { MessagesList } from "./components/messages-list";
export { useConversationRealtimeHandlers } from "./hooks/use-conversation-realtime-handlers";
export { exportConversation } from "./utils/export-csv";
