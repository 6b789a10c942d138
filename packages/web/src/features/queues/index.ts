/** What other features may use of the queues feature. */
export { QueueModal } from "./components/queue-modal";
