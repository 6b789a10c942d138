import { useConnections } from "../../../lib/queries/use-connections";

/** The list, read again every `refetchInterval` ms while a screen that shows health is open. */
export function useWhatsapps(options: { refetchInterval?: number } = {}) {
  return useConnections(options);
}
