import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/** PUT /whatsappsession/:id: drop the old pairing and ask for a new QR code. */
export const requestNewQr = (id: number) => api.put<unknown>(`/whatsappsession/${id}`);

export function useRequestNewQr() {
  return useMutation({ mutationFn: requestNewQr });
}
