import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import bcrypt from "bcryptjs";
import type { SourceDb } from "./sources.js";

/** The password of every generated staff member (stored as bcryptjs cost-8 hashes, as every flavour does). */
export const OLD_PASSWORD = "senha-antiga-123";
const HASH = bcrypt.hashSync(OLD_PASSWORD, 8);

/** "YYYY-MM-DD HH:MM:SS" as a Whaticket MySQL database stores it (the -03:00 session's local time). */
const local = (base: Date, minutes: number) => {
  const d = new Date(base.getTime() + minutes * 60_000 - 3 * 3600_000);
  return d.toISOString().replace("T", " ").replace("Z", "").slice(0, 19);
};
const BASE = new Date("2024-03-10T12:00:00Z");
const EMOJI = ["Olá 😀", "Obrigado 🙏🏽", "Ação çedilha", "👍", "Boa tarde! 🌞"];

export interface Expectations {
  contacts: number;
  twins: number;
  aliases: number;
  tickets: number;
  messages: number;
  missingMedia: number;
  presentMedia: number;
  /** A message whose stored local time is known, and the UTC instant it must be imported as. */
  knownTime: { sourceId: string; utc: string };
}

/** Whaticket Community (or Press Ticket) on MariaDB: twins, groups, missing media, quotes, emoji, -03:00 times. */
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
          // A NUL character (MySQL keeps it; PostgreSQL text refuses it) in one message.
          body: media
            ? "foto.jpg"
            : `${EMOJI[(ticketId + k) % EMOJI.length]} mensagem ${k} do ticket ${ticketId}${ticketId === 7 && k === 0 ? "\u0000!" : ""}`,
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
  await src.run(`SET FOREIGN_KEY_CHECKS = 0`);
  await src.insert("Messages", messages);
  await src.run(`SET FOREIGN_KEY_CHECKS = 1`);
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
 * Ticketz on PostgreSQL, two companies: LID maps with LID-only alias contacts, twins, the same
 * WhatsApp id in two tickets, acks on WhatsApp's scale, dataJson send times, notes, tags, media
 * under media/<company>/<contact>/<ticket>/<rand>/ (some missing), and an absolute URL.
 */
export async function fillTicketz(src: SourceDb, publicDir: string, size = 600): Promise<Expectations> {
  await src.insert("Plans", [{ id: 1, name: "Plano", users: 10, connections: 2, queues: 5, value: 10 }]);
  await src.insert("Companies", [
    { id: 1, name: "Loja", planId: 1 },
    { id: 2, name: "Outra empresa", planId: 1 },
  ]);
  await src.insert("Users", [
    { id: 1, companyId: 1, name: "Dona", email: "dona@loja.test", passwordHash: HASH, profile: "admin", super: true },
    { id: 2, companyId: 1, name: "Sup", email: "sup@loja.test", passwordHash: HASH, profile: "supervisor" },
    { id: 3, companyId: 2, name: "Outro", email: "outro@outra.test", passwordHash: HASH, profile: "admin" },
  ]);
  await src.insert("Whatsapps", [
    {
      id: 1,
      companyId: 1,
      name: "Principal",
      session: JSON.stringify({ creds: { me: { id: "5511@s.whatsapp.net" } } }),
      status: "CONNECTED",
      isDefault: true,
      greetingMessage: "Oi!",
      farewellMessage: "Tchau",
      ratingMessage: "Nota de 1 a 5?",
    },
    { id: 2, companyId: 2, name: "Principal", status: "CONNECTED", isDefault: true },
  ]);
  await src.insert("BaileysKeys", [{ whatsappId: 1, type: "pre-key", key: "1", value: "{}" }]);
  await src.insert("Queues", [
    { id: 1, companyId: 1, name: "Atendimento", color: "#aa00aa", greetingMessage: "Escolha" },
    { id: 2, companyId: 1, name: "Cobrança", color: "#00aaaa" },
    { id: 3, companyId: 2, name: "Atendimento", color: "#aa00aa" },
  ]);
  await src.insert("QueueOptions", [{ id: 1, queueId: 1, title: "Falar com humano", option: "1" }]);
  await src.insert("UserQueues", [{ userId: 2, queueId: 1 }]);
  await src.insert("WhatsappQueues", [
    { whatsappId: 1, queueId: 1 },
    { whatsappId: 1, queueId: 2 },
  ]);
  await src.insert("QuickMessages", [
    { id: 1, shortcode: "ola", message: "Olá, tudo bem?", companyId: 1, userId: 1 },
    { id: 2, shortcode: "horario", message: "Das 8h às 18h", companyId: 1, userId: 1 },
    { id: 3, shortcode: "outra", message: "De outra empresa", companyId: 2, userId: 3 },
  ]);
  await src.insert("Tags", [
    { id: 1, companyId: 1, name: "VIP", color: "#FFAA00", kanban: 0 },
    { id: 2, companyId: 1, name: "Lead", color: "#00ff00", kanban: 1 },
  ]);
  const contacts: Record<string, unknown>[] = [];
  const lidMaps: Record<string, unknown>[] = [];
  const tickets: Record<string, unknown>[] = [];
  const messages: Record<string, unknown>[] = [];
  const notes: Record<string, unknown>[] = [];
  const contactTags: Record<string, unknown>[] = [];
  const ticketTags: Record<string, unknown>[] = [];
  const twins = 20;
  const aliases = 20;
  let missing = 0;
  let present = 0;
  for (let i = 1; i <= size; i++) {
    contacts.push({ id: i, companyId: 1, name: `Pessoa ${i}`, number: `552198${String(i).padStart(7, "0")}` });
    if (i <= aliases) lidMaps.push({ lid: `20000000000${String(i).padStart(4, "0")}`, companyId: 1, contactId: i });
    if (i % 50 === 0) contactTags.push({ contactId: i, tagId: 1 });
  }
  for (let t = 1; t <= twins; t++)
    contacts.push({
      id: size + t,
      companyId: 1,
      name: `Pessoa ${aliases + t} (12)`,
      number: `55218${String(aliases + t).padStart(7, "0")}`,
    });
  // LID-only contacts: created when WhatsApp showed the person by LID before the mapping was known.
  for (let a = 1; a <= aliases; a++)
    contacts.push({
      id: size + twins + a,
      companyId: 1,
      name: `20000000000${String(a).padStart(4, "0")}`,
      number: `20000000000${String(a).padStart(4, "0")}`,
    });
  // The other company: never imported when company 1 is chosen.
  for (let o = 1; o <= 30; o++)
    contacts.push({
      id: size + twins + aliases + o,
      companyId: 2,
      name: `Outra ${o}`,
      number: `552198${String(o).padStart(7, "0")}`,
    });
  let ticketId = 0;
  let epoch = 1_700_000_000;
  for (const c of contacts) {
    const cid = c.id as number;
    const company = c.companyId as number;
    const sessions = cid <= 10 ? ["closed", "open"] : [cid % 4 === 0 ? "open" : "closed"];
    for (const status of sessions) {
      ticketId++;
      tickets.push({
        id: ticketId,
        companyId: company,
        status,
        contactId: cid,
        userId: company === 1 ? (cid % 2) + 1 : 3,
        whatsappId: company,
        queueId: company === 1 ? 1 : 3,
        unreadMessages: 0,
        lastMessage: "fim",
        createdAt: new Date((epoch - 3600) * 1000),
        updatedAt: new Date(epoch * 1000),
      });
      if (cid % 60 === 0 && company === 1) ticketTags.push({ ticketId, tagId: 2 });
      if (ticketId % 25 === 0 && company === 1)
        notes.push({ note: `Nota interna ${ticketId}`, userId: 1, contactId: cid, ticketId });
      for (let k = 0; k < 4; k++) {
        epoch += 7;
        const id = `BAE5${ticketId.toString(16).toUpperCase().padStart(8, "0")}${k}`;
        const fromMe = k % 2 === 1;
        let mediaUrl: string | null = null;
        if (k === 2 && ticketId % 15 === 0 && company === 1) {
          mediaUrl = `media/1/${cid}/${ticketId}/x${ticketId}/audio ${ticketId}.ogg`;
          if (ticketId % 30 === 0) missing++;
          else {
            present++;
            const file = join(publicDir, mediaUrl);
            mkdirSync(dirname(file), { recursive: true });
            writeFileSync(file, `ogg ${ticketId}`);
          }
        }
        messages.push({
          id,
          companyId: company,
          ticketId,
          contactId: cid,
          body: mediaUrl ? "" : `msg ${k} ${EMOJI[k]}`,
          fromMe,
          read: true,
          ack: fromMe ? 4 : 0,
          mediaUrl,
          mediaType: mediaUrl ? "audio" : "conversation",
          remoteJid: `${c.number}@s.whatsapp.net`,
          dataJson: JSON.stringify({
            key: { remoteJid: `${c.number}@s.whatsapp.net`, id, fromMe },
            messageTimestamp: epoch,
            pushName: c.name,
          }),
          quotedMsgId: k === 3 ? `BAE5${ticketId.toString(16).toUpperCase().padStart(8, "0")}2` : null,
          // createdAt is the insert time, hours after the real send time.
          createdAt: new Date((epoch + 7200) * 1000),
          updatedAt: new Date((epoch + 7200) * 1000),
        });
      }
      // The same WhatsApp message stored in both tickets of the first contacts (Ticketz's key is (id, ticketId)).
      if (cid <= 10 && company === 1) {
        messages.push({
          id: `DUP${cid}`,
          companyId: 1,
          ticketId,
          contactId: cid,
          body: "repetida",
          fromMe: false,
          read: true,
          ack: 0,
          mediaType: "conversation",
          createdAt: new Date(epoch * 1000),
          updatedAt: new Date(epoch * 1000),
        });
      }
    }
  }
  // An object-storage URL (absolute), outside any folder.
  const absolute = messages.find((m) => m.companyId === 1 && !m.mediaUrl && m.ticketId === 5) as Record<string, unknown>;
  absolute.mediaUrl = "https://bucket.example/ticketz/file.pdf";
  absolute.mediaType = "document";
  await src.insert("Contacts", contacts);
  await src.insert("ContactCustomFields", [
    { name: "Cidade", value: "Rio", contactId: 21 },
    { name: "Cidade", value: "Rio", contactId: size + 1 },
    { name: "Origem", value: "LID", contactId: size + twins + 1 },
  ]);
  await src.insert("WhatsappLidMaps", lidMaps);
  await src.insert("Tickets", tickets);
  await src.insert("Messages", messages);
  await src.insert("TicketNotes", notes);
  await src.insert("ContactTags", contactTags);
  await src.insert("TicketTags", ticketTags);
  const mine = messages.filter((m) => m.companyId === 1);
  const firstFromMe = mine.find((m) => m.fromMe) as { id: string; ticketId: number; dataJson: string };
  return {
    contacts: contacts.filter((c) => c.companyId === 1).length,
    twins,
    aliases,
    tickets: tickets.filter((t) => t.companyId === 1).length,
    messages: mine.length,
    missingMedia: missing,
    presentMedia: present,
    knownTime: {
      sourceId: `${firstFromMe.ticketId}:${firstFromMe.id}`,
      utc: new Date((JSON.parse(firstFromMe.dataJson) as { messageTimestamp: number }).messageTimestamp * 1000).toISOString(),
    },
  };
}

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
  await src.insert("Tickets", tickets);
  await src.insert("Messages", messages);
  return { contacts: contacts.length, aliases, tickets: tickets.length, messages: messages.length, notes, missing, present };
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
