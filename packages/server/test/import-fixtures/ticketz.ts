import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { EMOJI, type Expectations, HASH } from "./common.js";
import type { SourceDb } from "./sources.js";

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
