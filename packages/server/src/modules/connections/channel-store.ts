import type { ConnectionProvider, ConnectionStatus } from "@zapdesk/core";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { ChannelStore } from "../../channels/channel-store.js";
import type { Db } from "../../db/client.js";
import { contacts, lidMappings, messages, tickets, whatsapps } from "../../db/schema.js";
import { authRows, leaseRows } from "./channel-store-rows.js";
import { claimStale, createInboundLog } from "./inbound-log.repo.js";

/**
 * The channels' store over drizzle (the port is `channels/channel-store.ts`): the one place that
 * knows which tables and columns the Baileys, Cloud API and simulator channels and the session
 * manager read and write.
 */
export function createChannelStore(db: Db): ChannelStore {
  return {
    auth: (whatsappId) => authRows(db, whatsappId),
    inbox: (whatsappId) => createInboundLog(db, whatsappId),
    claimStale: (kind, options) => claimStale(db, kind, options),
    leases: leaseRows(db),

    async connectionIds() {
      const rows = await db.select({ id: whatsapps.id }).from(whatsapps).orderBy(whatsapps.id);
      return rows.map((row) => row.id);
    },

    async connection(whatsappId) {
      const [row] = await db
        .select({ provider: whatsapps.provider, status: whatsapps.status })
        .from(whatsapps)
        .where(eq(whatsapps.id, whatsappId));
      return row && { provider: row.provider as ConnectionProvider, status: row.status as ConnectionStatus };
    },

    async pairingPhone(whatsappId) {
      const [row] = await db.select({ phone: whatsapps.pairingPhone }).from(whatsapps).where(eq(whatsapps.id, whatsappId));
      return row?.phone;
    },

    async cloudAccount(whatsappId) {
      const [row] = await db
        .select({
          provider: whatsapps.provider,
          phoneNumberId: whatsapps.cloudPhoneNumberId,
          businessAccountId: whatsapps.cloudBusinessAccountId,
          accessToken: whatsapps.cloudAccessToken,
          appSecret: whatsapps.cloudAppSecret,
          verifyToken: whatsapps.cloudVerifyToken,
        })
        .from(whatsapps)
        .where(eq(whatsapps.id, whatsappId));
      if (row?.provider !== "cloud" || !row.phoneNumberId) return undefined;
      const { provider: _provider, phoneNumberId, ...rest } = row;
      return { phoneNumberId, ...rest };
    },

    async cloudConnectionOf(phoneNumberId) {
      const [row] = await db
        .select({ id: whatsapps.id, provider: whatsapps.provider })
        .from(whatsapps)
        .where(eq(whatsapps.cloudPhoneNumberId, phoneNumberId));
      return row?.provider === "cloud" ? row.id : undefined;
    },

    async message(whatsappId, wid) {
      const [row] = await db
        .select({ fromMe: messages.fromMe })
        .from(messages)
        .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)))
        .limit(1);
      return row;
    },

    async messageRaws(whatsappId, wids) {
      const raws = new Map<string, unknown>();
      if (wids.length === 0) return raws;
      const rows = await db
        .select({ wid: messages.wid, raw: messages.raw })
        .from(messages)
        .where(
          and(eq(messages.whatsappId, whatsappId), wids.length === 1 ? eq(messages.wid, wids[0]) : inArray(messages.wid, wids)),
        );
      for (const row of rows) if (row.wid && row.raw != null) raws.set(row.wid, row.raw);
      return raws;
    },

    async activeChats(whatsappId) {
      const rows = await db
        .select({
          number: contacts.number,
          lid: contacts.lid,
          pn: sql<string | null>`(select ${lidMappings.pn} from ${lidMappings} where ${lidMappings.lid} = ${contacts.number})`,
          newest: sql<string | null>`max(${messages.createdAt})`,
        })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .leftJoin(messages, and(eq(messages.ticketId, tickets.id), eq(messages.isNote, false)))
        .where(and(eq(tickets.whatsappId, whatsappId), inArray(tickets.status, ["pending", "open"])))
        .groupBy(contacts.id);
      return rows.map((row) => ({
        addresses: [row.number, row.lid, row.pn].filter((address): address is string => !!address),
        newest: row.newest ? new Date(row.newest) : null,
      }));
    },
  };
}
