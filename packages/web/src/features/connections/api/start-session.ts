import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/** POST /whatsappsession/:id: "try again" on a disconnected session; the status arrives over the socket. */
export const startSession = (id: number) => api.post<unknown>(`/whatsappsession/${id}`);

export function useStartSession() {
  return useMutation({ mutationFn: startSession });
}
