import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  Webhook,
  WebhookCreated,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookInput,
  WebhookSecret,
  WebhookUpdate,
} from "@zapdesk/core";
import { api } from "../../../lib/api-client";

export const webhookKeys = {
  all: ["webhooks"] as const,
  deliveries: (id: number, page: number, status: WebhookDeliveryStatus | "") =>
    ["webhooks", "deliveries", id, page, status] as const,
};

export function useWebhooks() {
  // The last delivery's status moves on by itself (the worker): refreshed while the screen is open.
  return useQuery({
    queryKey: webhookKeys.all,
    queryFn: () => api.get<{ webhooks: Webhook[] }>("/webhooks"),
    refetchInterval: 5000,
  });
}

export function useSaveWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: WebhookInput | WebhookUpdate }) =>
      id ? api.put<Webhook>(`/webhooks/${id}`, input) : api.post<WebhookCreated>("/webhooks", input),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.all }),
    meta: { handlesErrors: true },
  });
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/webhooks/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export function useRotateSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<WebhookSecret>(`/webhooks/${id}/rotate-secret`),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

/** A webhook's deliveries, refreshed every few seconds while shown (retries move on by themselves). */
export function useDeliveries(id: number | undefined, page: number, status: WebhookDeliveryStatus | "") {
  return useQuery({
    queryKey: webhookKeys.deliveries(id ?? 0, page, status),
    queryFn: () =>
      api.get<{ deliveries: WebhookDelivery[]; count: number; hasMore: boolean }>(`/webhooks/${id}/deliveries`, {
        pageNumber: String(page),
        ...(status ? { status } : {}),
      }),
    enabled: !!id,
    refetchInterval: 3000,
  });
}

export function useResendDelivery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) => api.post<WebhookDelivery>(`/webhooks/deliveries/${deliveryId}/resend`),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
