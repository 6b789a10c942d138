import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/** DELETE /whatsappsession/:id: log the session out of WhatsApp. */
export const disconnectSession = (id: number) => api.delete<unknown>(`/whatsappsession/${id}`);

export function useDisconnectSession() {
  return useMutation({ mutationFn: disconnectSession });
}
