export { MessageInput } from "./components/message-input";
export { MessagesList } from "./components/messages-list";
export { useConversationRealtimeHandlers } from "./hooks/use-conversation-realtime-handlers";
