import type { SourceDb } from "./sources.js";

/** A body whose words make a search vector over PostgreSQL's 1 MB limit: our messages table cannot store it. */
export const OVERSIZED_BODY = Array.from({ length: 130_000 }, (_, i) => `palavra${i.toString(36)}`).join(" ");

/**
 * A small Ticketz database (one company, 20 contacts, a ticket each, 10 messages a ticket) with
 * the rows a years-old database holds that cannot come in as they are: a message whose ticket is
 * gone, a message too large for our search column, a message whose dates cannot be read, a
 * ticket whose contact is gone, a contact without a number. Foreign keys are dropped first, as a
 * database restored without them (or repaired by hand) has none.
 */
export async function fillBadRows(src: SourceDb) {
  await src.run(`alter table "Messages" drop constraint "Messages_ticketId_fkey"`);
  await src.run(`alter table "Tickets" drop constraint "Tickets_contactId_fkey"`);
  await src.insert("Companies", [{ id: 1, name: "Loja" }]);
  await src.insert("Whatsapps", [{ id: 1, companyId: 1, name: "Principal", status: "CONNECTED", isDefault: true }]);
  const contacts: Record<string, unknown>[] = [];
  const tickets: Record<string, unknown>[] = [];
  const messages: Record<string, unknown>[] = [];
  const t0 = Date.parse("2025-01-10T12:00:00Z");
  for (let i = 1; i <= 20; i++) {
    contacts.push({ id: i, companyId: 1, name: `Pessoa ${i}`, number: `552199${String(i).padStart(7, "0")}` });
    tickets.push({
      id: i,
      companyId: 1,
      status: "closed",
      contactId: i,
      whatsappId: 1,
      lastMessage: "fim",
      createdAt: new Date(t0 + i * 3600_000),
      updatedAt: new Date(t0 + i * 3600_000 + 600_000),
    });
    for (let k = 0; k < 10; k++) {
      const at = t0 + i * 3600_000 + k * 60_000;
      messages.push({
        id: `OK${i}X${k}`,
        companyId: 1,
        ticketId: i,
        contactId: i,
        body: `mensagem ${k} da conversa ${i}`,
        fromMe: k % 2 === 1,
        ack: k % 2 ? 4 : 0,
        dataJson: JSON.stringify({ messageTimestamp: at / 1000 }),
        createdAt: new Date(at),
        updatedAt: new Date(at),
      });
    }
  }
  contacts.push({ id: 21, companyId: 1, name: "Sem número", number: "" });
  // Ticket 30's contact (99) is not in the source.
  tickets.push({ ...tickets[0], id: 30, status: "open", contactId: 99 });
  const at = new Date(t0 + 5 * 3600_000 + 4 * 60_000 + 1000);
  const bad = [
    // In the middle of conversation 5 (the same batch as its neighbours): too large to index.
    { id: "OK5X4B", companyId: 1, ticketId: 5, contactId: 5, body: OVERSIZED_BODY, fromMe: false, ack: 0 },
    // A message of a ticket that is not in the source, and one of the ticket whose contact is gone.
    { id: "ORPHAN1", companyId: 1, ticketId: 777, contactId: 1, body: "órfã", fromMe: false, ack: 0 },
    { id: "LOST30", companyId: 1, ticketId: 30, contactId: 99, body: "perdida", fromMe: false, ack: 0 },
    // Neither dataJson nor createdAt can be read.
    {
      id: "NODATE",
      companyId: 1,
      ticketId: 7,
      contactId: 7,
      body: "sem data",
      fromMe: false,
      ack: 0,
      dataJson: '{"messageTimestamp":"amanhã"',
      createdAt: "infinity",
      updatedAt: "infinity",
    },
  ];
  await src.insert("Contacts", contacts);
  await src.insert("Tickets", tickets);
  await src.insert("Messages", messages);
  for (const row of bad) await src.insert("Messages", [{ dataJson: null, createdAt: at, updatedAt: at, ...row }]);
  return { goodMessages: 200, contacts: 21, tickets: 21 };
}
