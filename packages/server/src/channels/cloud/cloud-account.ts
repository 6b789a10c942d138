import type { ChannelStore } from "../channel-store.js";
import { createGraphClient, type GraphClient } from "./graph-client.js";

/** A Cloud API connection's settings with its secrets opened (never leaves the server). */
export interface CloudAccount {
  whatsappId: number;
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

/** How the channel reaches the Graph API and opens the sealed secrets (the connection service's SecretBox). */
export interface CloudDeps {
  graphUrl: string;
  openSecret(sealed: string | null): string;
  fetch?: typeof fetch;
  /** A Graph call's deadline (a send past it is an unknown outcome). */
  timeoutMs?: number;
  /** An upload's or media download's deadline. */
  mediaTimeoutMs?: number;
}

/** A Graph client with the account's token and the configured deadlines. */
export function graphClientFor(deps: CloudDeps, account: Pick<CloudAccount, "accessToken">): GraphClient {
  return createGraphClient({
    baseUrl: deps.graphUrl,
    accessToken: account.accessToken,
    fetch: deps.fetch,
    timeoutMs: deps.timeoutMs,
    mediaTimeoutMs: deps.mediaTimeoutMs,
  });
}

/** The connection's Cloud API settings, or undefined when it is not a Cloud API connection (or is gone). */
export async function loadCloudAccount(
  store: Pick<ChannelStore, "cloudAccount">,
  whatsappId: number,
  openSecret: CloudDeps["openSecret"],
): Promise<CloudAccount | undefined> {
  const row = await store.cloudAccount(whatsappId);
  if (!row) return undefined;
  return {
    whatsappId,
    phoneNumberId: row.phoneNumberId,
    businessAccountId: row.businessAccountId ?? "",
    accessToken: openSecret(row.accessToken),
    appSecret: openSecret(row.appSecret),
    verifyToken: row.verifyToken ?? "",
  };
}
