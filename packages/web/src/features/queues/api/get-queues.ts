// The queue list is shared with the user and connection modals, so its hook lives in lib.
export { useQueues } from "../../../lib/queries/use-queues";
