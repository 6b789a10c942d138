import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HASH } from "./common.js";
import type { SourceDb } from "./sources.js";

/**
 * Multiflow on PostgreSQL, one company: Contacts.lid with LID-only alias contacts, private notes
 * stored as messages (isPrivate), integer message ids with the WhatsApp id in `wid`, statuses
 * beyond pending/open/closed, a Cloud API number and a non-WhatsApp channel, a Meta template among
 * the quick messages, media under public/company<id>/.
 */
export async function fillMultiflow(src: SourceDb, publicDir: string, size = 100) {
  await src.insert("Companies", [{ id: 1, name: "Empresa" }]);
  await src.insert("CompaniesSettings", [{ companyId: 1, userRating: "enabled", chatBotType: "text", enableLGPD: "disabled" }]);
  await src.insert("Users", [
    { id: 1, companyId: 1, name: "Admin", email: "admin@flow.test", passwordHash: HASH, profile: "admin" },
  ]);
  await src.insert("Whatsapps", [
    {
      id: 1,
      companyId: 1,
      name: "API oficial",
      status: "CONNECTED",
      isDefault: true,
      channel: "whatsapp",
      phone_number_id: "1098765",
      waba_id: "555",
      send_token: "EAAG-secret",
    },
    { id: 2, companyId: 1, name: "Facebook", status: "CONNECTED", isDefault: false, channel: "facebook" },
  ]);
  await src.insert("Queues", [{ id: 1, companyId: 1, name: "Geral", color: "#336699", greetingMessage: "Oi" }]);
  await src.insert("QuickMessages", [
    { id: 1, shortcode: "oi", message: "Oi, tudo bem?", companyId: 1, userId: 1, isOficial: false },
    {
      id: 2,
      shortcode: "boas_vindas",
      message: "{{1}}, bem-vindo",
      companyId: 1,
      userId: 1,
      isOficial: true,
      metaID: "987",
      status: "APPROVED",
    },
  ]);
  const contacts: Record<string, unknown>[] = [];
  const tickets: Record<string, unknown>[] = [];
  const messages: Record<string, unknown>[] = [];
  const aliases = 10;
  let missing = 0;
  let present = 0;
  let notes = 0;
  for (let i = 1; i <= size; i++) {
    contacts.push({
      id: i,
      companyId: 1,
      name: `Contato ${i}`,
      number: `553199${String(i).padStart(7, "0")}`,
      lid: i <= aliases ? `30000000000${String(i).padStart(4, "0")}@lid` : null,
    });
  }
  for (let a = 1; a <= aliases; a++)
    contacts.push({ id: size + a, companyId: 1, name: "~", number: `30000000000${String(a).padStart(4, "0")}`, lid: null });
  const statuses = ["open", "pending", "closed", "nps", "lgpd", "chatbot"];
  let messageId = 0;
  for (const c of contacts) {
    const t = c.id as number;
    tickets.push({
      id: t,
      companyId: 1,
      status: statuses[t % statuses.length],
      contactId: t,
      userId: 1,
      whatsappId: 1,
      queueId: 1,
      lastMessage: "x",
      unreadMessages: 0,
    });
    for (let k = 0; k < 3; k++) {
      messageId++;
      const isPrivate = k === 2 && t % 5 === 0;
      if (isPrivate) notes++;
      let mediaUrl: string | null = null;
      if (k === 1 && t % 10 === 0) {
        mediaUrl = `doc${t}.pdf`;
        if (t % 20 === 0) missing++;
        else {
          present++;
          mkdirSync(join(publicDir, "company1"), { recursive: true });
          writeFileSync(join(publicDir, "company1", mediaUrl), `pdf ${t}`);
        }
      }
      messages.push({
        id: messageId,
        wid: isPrivate ? null : `WID${t}X${k}`,
        companyId: 1,
        ticketId: t,
        contactId: t,
        body: isPrivate ? `nota privada ${t}` : `mensagem ${k}`,
        fromMe: k > 0,
        read: true,
        ack: k > 0 ? 3 : 0,
        mediaUrl,
        mediaType: mediaUrl ? "application" : "chat",
        isPrivate,
        quotedMsgId: k === 1 ? messageId - 1 : null,
      });
    }
  }
  await src.insert("Contacts", contacts);
  // Issue 23 §5: wallets (carteiras): one imported as the contact's owner, one of an agent and one of a contact not in the source.
  await src.insert("ContactWallets", [
    { id: 1, walletId: 1, contactId: aliases + 1, queueId: 1, companyId: 1 },
    { id: 2, walletId: 99, contactId: aliases + 2, queueId: 1, companyId: 1 },
    { id: 3, walletId: 1, contactId: 99999, queueId: null, companyId: 1 },
  ]);
  await src.insert("Tickets", tickets);
  await src.insert("Messages", messages);
  return {
    contacts: contacts.length,
    aliases,
    wallets: 3,
    owned: 1,
    tickets: tickets.length,
    messages: messages.length,
    notes,
    missing,
    present,
  };
}

/**
 * The SaaS baseline on PostgreSQL, one company: each contact's one ticket row reused for three
 * service sessions (TicketTraking), messages spread over the sessions by time.
 */
export async function fillSaas(src: SourceDb, size = 50) {
  await src.insert("Companies", [{ id: 1, name: "Empresa" }]);
  await src.insert("Users", [
    { id: 1, companyId: 1, name: "Agente", email: "agente@saas.test", passwordHash: HASH, profile: "user" },
  ]);
  await src.insert("Whatsapps", [{ id: 1, companyId: 1, name: "Número", status: "CONNECTED", isDefault: true, session: "{}" }]);
  await src.insert("QuickMessages", [{ id: 1, shortcode: "oi", message: "Oi!", companyId: 1, userId: 1 }]);
  const day = 86_400_000;
  const t0 = Date.parse("2024-05-01T12:00:00Z");
  const contacts: Record<string, unknown>[] = [];
  const tickets: Record<string, unknown>[] = [];
  const sessions: Record<string, unknown>[] = [];
  const messages: Record<string, unknown>[] = [];
  for (let i = 1; i <= size; i++) {
    contacts.push({ id: i, companyId: 1, name: `Cliente ${i}`, number: `554199${String(i).padStart(7, "0")}` });
    tickets.push({
      id: i,
      companyId: 1,
      status: "open",
      contactId: i,
      userId: 1,
      whatsappId: 1,
      lastMessage: "y",
      createdAt: new Date(t0),
      updatedAt: new Date(t0 + 2 * day + 3600_000),
    });
    for (let s = 0; s < 3; s++) {
      const start = t0 + s * day;
      sessions.push({
        ticketId: i,
        companyId: 1,
        whatsappId: 1,
        userId: 1,
        startedAt: new Date(start),
        finishedAt: s < 2 ? new Date(start + 3600_000) : null,
      });
      for (let k = 0; k < 2; k++) {
        const at = start + (k + 1) * 60_000;
        messages.push({
          id: `SAAS${i}S${s}K${k}`,
          companyId: 1,
          ticketId: i,
          contactId: i,
          body: `sessão ${s} msg ${k}`,
          fromMe: k === 1,
          read: true,
          ack: k === 1 ? 3 : 0,
          mediaType: "conversation",
          dataJson: JSON.stringify({ messageTimestamp: at / 1000 }),
          createdAt: new Date(at),
          updatedAt: new Date(at),
        });
      }
    }
  }
  await src.insert("Contacts", contacts);
  await src.insert("Tickets", tickets);
  await src.insert("TicketTraking", sessions);
  await src.insert("Messages", messages);
  // Ratings answered in the first (finished) session of the first contacts, and one out of range.
  await src.insert("UserRatings", [
    ...Array.from({ length: 5 }, (_, i) => ({
      ticketId: i + 1,
      companyId: 1,
      userId: 1,
      rate: 3,
      createdAt: new Date(t0 + 1800_000),
    })),
    { ticketId: 6, companyId: 1, userId: 1, rate: 9, createdAt: new Date(t0 + 1800_000) },
  ]);
  // One schedule still to come, one past due and never sent, one sent.
  const future = new Date(Date.now() + 7 * day);
  await src.insert("Schedules", [
    { body: "Lembrete da consulta", sendAt: future, contactId: 1, ticketId: 1, userId: 1, companyId: 1, status: "PENDENTE" },
    { body: "Atrasado", sendAt: new Date(t0), contactId: 2, ticketId: 2, userId: 1, companyId: 1, status: "PENDENTE" },
    {
      body: "Enviado",
      sendAt: new Date(t0),
      sentAt: new Date(t0),
      contactId: 3,
      ticketId: 3,
      userId: 1,
      companyId: 1,
      status: "ENVIADA",
    },
  ]);
  return { tickets: tickets.length, sessions: sessions.length, messages: messages.length, ratings: 5, futureSchedule: future };
}
