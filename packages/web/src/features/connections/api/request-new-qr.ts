import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export interface NewSessionInput {
  id: number;
  /**
   * Omitted: pair as configured. A number: pair by a code typed on that phone. null: back to the
   * QR code (forget the number).
   */
  pairingPhone?: string | null;
}

/** PUT /whatsappsession/:id: drop the old pairing and pair again (a new QR code, or a phone code). */
export const requestNewQr = ({ id, pairingPhone }: NewSessionInput) =>
  api.put<unknown>(`/whatsappsession/${id}`, pairingPhone === undefined ? undefined : { pairingPhone });

export function useRequestNewQr() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: requestNewQr,
    // The pairing phone may have changed: the QR dialog reads it from the list.
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.whatsapps.all }),
  });
}
