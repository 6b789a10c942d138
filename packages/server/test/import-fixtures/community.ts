import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BASE, EMOJI, type Expectations, HASH, local } from "./common.js";
import type { SourceDb } from "./sources.js";

/** Whaticket Community (or Press Ticket) on MariaDB, or Community on PostgreSQL: twins, groups, missing media, quotes, emoji, -03:00 times. */
export async function fillCommunity(src: SourceDb, mediaDir: string, size = 1000): Promise<Expectations> {
  const now = local(BASE, 0);
  const stamp = { createdAt: now, updatedAt: now };
  await src.insert("Whatsapps", [
    {
      id: 1,
      name: "Atendimento",
      status: "CONNECTED",
      session: "wwebjs",
      isDefault: 1,
      greetingMessage: "Bem-vindo!",
      farewellMessage: "Até logo",
      ...stamp,
    },
  ]);
  await src.insert("Queues", [
    { id: 1, name: "Suporte", color: "#ff0000", greetingMessage: "Suporte técnico", ...stamp },
    { id: 2, name: "Vendas", color: "#00ff00", greetingMessage: "", ...stamp },
    { id: 3, name: "Financeiro", color: "#123456", greetingMessage: "Financeiro", ...stamp },
  ]);
  await src.insert("Users", [
    { id: 1, name: "Ana", email: "ana@old.test", passwordHash: HASH, profile: "admin", ...stamp },
    { id: 2, name: "Bruno", email: "bruno@old.test", passwordHash: HASH, profile: "user", whatsappId: 1, ...stamp },
    { id: 3, name: "Carla", email: "carla@old.test", passwordHash: HASH, profile: "user", ...stamp },
  ]);
  await src.insert("UserQueues", [
    { userId: 2, queueId: 1, ...stamp },
    { userId: 3, queueId: 2, ...stamp },
    { userId: 3, queueId: 3, ...stamp },
  ]);
  await src.insert("WhatsappQueues", [
    { whatsappId: 1, queueId: 1, ...stamp },
    { whatsappId: 1, queueId: 2, ...stamp },
  ]);
  await src.insert("QuickAnswers", [
    { id: 1, shortcut: "ola", message: "Olá! Como posso ajudar? 😀", ...stamp },
    { id: 2, shortcut: "pix", message: "Nossa chave PIX é 123", ...stamp },
  ]);
  const contacts: Record<string, unknown>[] = [];
  const fields: Record<string, unknown>[] = [];
  const tickets: Record<string, unknown>[] = [];
  const messages: Record<string, unknown>[] = [];
  const twins = 40;
  const groups = 5;
  let ticketId = 0;
  let missing = 0;
  let present = 0;
  for (let i = 1; i <= size; i++) {
    contacts.push({
      id: i,
      name: `Cliente ${i} ${EMOJI[i % EMOJI.length]}`,
      number: `551197${String(i).padStart(7, "0")}`,
      email: i % 7 ? "" : `c${i}@mail.test`,
      ...stamp,
    });
    if (i <= 200) fields.push({ name: "CPF", value: `000.000.${String(i).padStart(3, "0")}-00`, contactId: i, ...stamp });
  }
  // Ninth-digit twins: the older 12-digit form of the first `twins` numbers (the same person).
  for (let t = 1; t <= twins; t++) {
    const id = size + t;
    contacts.push({ id, name: `Cliente ${t} (antigo)`, number: `55117${String(t).padStart(7, "0")}`, email: "", ...stamp });
    fields.push({ name: "Plano", value: "Gold", contactId: id, ...stamp });
  }
  for (let g = 1; g <= groups; g++) {
    contacts.push({
      id: size + twins + g,
      name: `Grupo ${g}`,
      number: `551199999000${g}-161234567${g}`,
      isGroup: 1,
      email: "",
      ...stamp,
    });
  }
  for (const c of contacts) {
    const cid = c.id as number;
    const isTwin = cid > size && cid <= size + twins;
    const isGroup = cid > size + twins;
    const sessions =
      isTwin && cid - size <= 10 ? ["closed", "open"] : [isTwin ? "closed" : ["open", "pending", "closed"][cid % 3]];
    for (const status of sessions) {
      ticketId++;
      const userId = status === "pending" ? null : (cid % 3) + 1;
      tickets.push({
        id: ticketId,
        status,
        lastMessage: "última",
        unreadMessages: status === "pending" ? 2 : 0,
        isGroup: isGroup ? 1 : 0,
        contactId: cid,
        userId,
        whatsappId: 1,
        queueId: (cid % 2) + 1,
        createdAt: local(BASE, ticketId),
        updatedAt: local(BASE, ticketId + 30),
      });
      for (let k = 0; k < 5; k++) {
        const id = `3EB0${ticketId.toString(16).toUpperCase().padStart(6, "0")}${k}`;
        const media = k === 2 && ticketId % 10 === 0;
        let mediaUrl: string | null = null;
        if (media) {
          mediaUrl = `${id}.jpg`;
          if (ticketId % 20 === 0) {
            missing++;
          } else {
            present++;
            mkdirSync(mediaDir, { recursive: true });
            writeFileSync(join(mediaDir, mediaUrl), `jpeg bytes of ${id}`);
          }
        }
        messages.push({
          id,
          // A NUL character (MySQL keeps it; PostgreSQL text refuses it, so a PostgreSQL source never has one) in one message.
          body: media
            ? "foto.jpg"
            : `${EMOJI[(ticketId + k) % EMOJI.length]} mensagem ${k} do ticket ${ticketId}${ticketId === 7 && k === 0 && src.dialect === "mysql" ? "\u0000!" : ""}`,
          ack: k % 2 ? 3 : 0,
          read: 1,
          fromMe: k % 2,
          mediaType: media ? "image" : "chat",
          mediaUrl,
          isDeleted: k === 4 && ticketId % 13 === 0 ? 1 : 0,
          quotedMsgId: k === 3 ? `3EB0${ticketId.toString(16).toUpperCase().padStart(6, "0")}1` : null,
          ticketId,
          contactId: k % 2 ? null : cid,
          createdAt: local(BASE, ticketId + k),
          updatedAt: local(BASE, ticketId + k),
        });
      }
    }
  }
  await src.insert("Contacts", contacts);
  await src.insert("ContactCustomFields", fields);
  await src.insert("Tickets", tickets);
  // Quoted messages first would break the self-reference in insert order: insert the quoted ones last.
  await src.withoutForeignKeys(() => src.insert("Messages", messages));
  const first = messages[0] as { id: string };
  return {
    contacts: contacts.length,
    twins,
    aliases: 0,
    tickets: tickets.length,
    messages: messages.length,
    missingMedia: missing,
    presentMedia: present,
    // BASE + 1 minute, stored as local -03:00 time "2024-03-10 09:01:00".
    knownTime: { sourceId: first.id, utc: "2024-03-10T12:01:00.000Z" },
  };
}

/**
 * Press Ticket on MariaDB: the Community data plus the sending agent on outgoing messages, a
 * masteradmin, numberLid with LID-only alias contacts (their own tickets), tags on contacts.
 */
export async function fillPress(src: SourceDb, mediaDir: string, size = 200) {
  const base = await fillCommunity(src, mediaDir, size);
  const now = local(BASE, 0);
  await src.run(`update "Users" set "profile" = 'masteradmin' where "id" = 1`);
  await src.run(`update "Messages" set "userId" = 2 where "fromMe" = 1`);
  const aliases = 5;
  const contacts: Record<string, unknown>[] = [];
  const tickets: Record<string, unknown>[] = [];
  const messages: Record<string, unknown>[] = [];
  for (let a = 1; a <= aliases; a++) {
    const lid = `40000000000${String(a).padStart(4, "0")}`;
    await src.run(`update "Contacts" set "numberLid" = ? where "id" = ?`, [lid, a]);
    const id = 10_000 + a;
    contacts.push({ id, name: lid, number: lid, email: "", createdAt: now, updatedAt: now });
    tickets.push({
      id,
      status: "closed",
      lastMessage: "lid",
      unreadMessages: 0,
      isGroup: 0,
      contactId: id,
      whatsappId: 1,
      createdAt: now,
      updatedAt: now,
    });
    messages.push({
      id: `LIDMSG${a}`,
      body: "mensagem pelo LID",
      ack: 0,
      read: 1,
      fromMe: 0,
      ticketId: id,
      contactId: id,
      createdAt: now,
      updatedAt: now,
    });
  }
  await src.insert("Contacts", contacts);
  await src.insert("Tickets", tickets);
  await src.insert("Messages", messages);
  await src.insert("Tags", [{ id: 1, name: "Cliente fiel", color: "#00AA00", createdAt: now, updatedAt: now }]);
  await src.insert("ContactTags", [
    { contactId: 1, tagId: 1, createdAt: now, updatedAt: now },
    { contactId: 10_001, tagId: 1, createdAt: now, updatedAt: now },
  ]);
  return {
    ...base,
    aliases,
    contacts: base.contacts + aliases,
    tickets: base.tickets + aliases,
    messages: base.messages + aliases,
  };
}
