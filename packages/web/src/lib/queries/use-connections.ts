import { useQuery } from "@tanstack/react-query";
import { CHANNEL_CAPABILITIES, type ChannelCapabilities, type Connection } from "@zapdesk/core";
import { api } from "../api-client";
import { queryKeys } from "../query-keys";

export const getConnections = () => api.get<Connection[]>("/whatsapp");

/**
 * The connection list is read by several screens (connections, the drawer badge, contacts): shared
 * here, not in one feature. `refetchInterval` keeps health figures current where they are shown.
 */
export function useConnections(options: { refetchInterval?: number } = {}) {
  return useQuery({ queryKey: queryKeys.whatsapps.all, queryFn: getConnections, refetchInterval: options.refetchInterval });
}

/** True once the list is loaded and at least one connection can do this: the UI hides what none can. */
export function useAnyConnectionCan(capability: keyof ChannelCapabilities): boolean {
  const { data } = useConnections();
  return (data ?? []).some((connection) => CHANNEL_CAPABILITIES[connection.provider]?.[capability]);
}

/** What the default connection can do: the server runs contact import and the like through it. */
export function useDefaultConnectionCan(capability: keyof ChannelCapabilities): boolean {
  const { data } = useConnections();
  const connection = data?.find((c) => c.isDefault);
  return !!connection && !!CHANNEL_CAPABILITIES[connection.provider]?.[capability];
}
