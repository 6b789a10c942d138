import type { Contact, Ticket } from "@zapdesk/core";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { contacts, messages, tickets, whatsapps } from "../../src/db/schema.js";
import { insertConnection } from "../channel-support.js";
import { makeAdmin, type TestUser } from "../factories.js";
import { createTestApp, openTestDatabase, type TestApp } from "../harness.js";
import { answerIqs } from "./iq-answers.js";
import { dispatch } from "./real-stanzas.js";
import { localWhatsApp, OFFLINE_DRAINED, OWN_DEVICE, pairedDevice, simulatedCustomer } from "./real-whatsapp.js";

/**
 * Issue 18 §3 item 7 on a QR connection, with the real makeWASocket: a Brazilian number typed
 * with the ninth digit is looked up with WhatsApp (Baileys' onWhatsApp, a usync query the test's
 * server answers with the account's 12-digit id) when an agent saves the contact or starts a
 * ticket, and the customer's real encrypted reply from that id joins the same contact and ticket.
 */
const RITA = { typed: "5531988887777", waId: "553188887777" };
const CAIO = { typed: "5531977776666", waId: "553177776666" };

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let server: Awaited<ReturnType<typeof localWhatsApp>>;
let t: TestApp;
let admin: TestUser;
let whatsappId: number;
let customer: Awaited<ReturnType<typeof simulatedCustomer>>;
let ws: Awaited<ReturnType<typeof server.ws>>;
let iqs: ReturnType<typeof answerIqs>;

beforeAll(async () => {
  database = await openTestDatabase();
  server = await localWhatsApp();
  whatsappId = await insertConnection(database.db, "baileys");
  await database.db.update(whatsapps).set({ isDefault: true }).where(eq(whatsapps.id, whatsappId));
  customer = await simulatedCustomer(await pairedDevice(database.db, whatsappId), {
    jid: `${RITA.waId}@s.whatsapp.net`,
    lid: "77772222333344@lid",
    name: "Rita",
  });
  t = await createTestApp({ database, factories: { baileys: server.factory } });
  admin = await makeAdmin(t);
  ws = await server.ws();
  iqs = answerIqs({
    ws,
    sentNodes: () => server.sentNodes(),
    directory: new Map([
      [RITA.typed, RITA.waId],
      [CAIO.typed, CAIO.waId],
    ]),
  });
  // WhatsApp's server logs the paired device in, then says its offline queue is drained.
  dispatch(ws, { tag: "success", attrs: { t: String(Math.floor(Date.now() / 1000)), lid: OWN_DEVICE.lid } });
  dispatch(ws, OFFLINE_DRAINED);
  await vi.waitFor(() => expect(t.sessions.isConnected(whatsappId)).toBe(true), { timeout: 10_000 });
});
afterAll(async () => {
  await iqs?.stop();
  await t?.close();
  await server?.close();
  await database?.close();
  await database?.drop();
});

const call = (method: "POST" | "GET", url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: admin.auth, ...(payload ? { payload } : {}) });
const contactsAt = (numbers: string[]) => database.db.select().from(contacts).where(inArray(contacts.number, numbers));

describe("Brazil's ninth digit on a QR connection (real Baileys)", () => {
  it("a contact saved with the ninth digit gets WhatsApp's id from its lookup; the real reply joins its contact and ticket", async () => {
    const created = await call("POST", "/api/contacts", { name: "Rita", number: RITA.typed });
    expect(created.statusCode, created.body).toBe(200);
    const contact = created.json() as Contact;
    expect(contact.number).toBe(RITA.waId);
    expect(iqs.lookups).toContain(RITA.typed);
    const started = await call("POST", "/api/tickets", { contactId: contact.id, status: "open", whatsappId });
    expect(started.statusCode, started.body).toBe(200);
    const ticket = started.json() as Ticket;

    dispatch(ws, await customer.message("3AREALNINTH01", "oi, é a Rita"));
    await vi.waitFor(
      async () => {
        const [row] = await database.db.select().from(messages).where(eq(messages.wid, "3AREALNINTH01"));
        expect(row).toMatchObject({ ticketId: ticket.id, contactId: contact.id, body: "oi, é a Rita" });
      },
      { timeout: 10_000 },
    );
    expect((await contactsAt([RITA.typed, RITA.waId])).map((c) => c.id)).toEqual([contact.id]);
    expect((await database.db.select().from(tickets).where(eq(tickets.contactId, contact.id))).map((x) => x.id)).toEqual([
      ticket.id,
    ]);
  });

  it("a contact kept under the typed form (saved while WhatsApp could not be asked) moves to WhatsApp's id when a ticket is started", async () => {
    const [kept] = await database.db.insert(contacts).values({ name: "Caio", number: CAIO.typed }).returning();
    const started = await call("POST", "/api/tickets", { contactId: kept.id, status: "open", whatsappId });
    expect(started.statusCode, started.body).toBe(200);
    expect((started.json() as Ticket).contact.number).toBe(CAIO.waId);
    expect(await contactsAt([CAIO.typed, CAIO.waId])).toMatchObject([{ id: kept.id, number: CAIO.waId, name: "Caio" }]);
  });

  it("a number WhatsApp does not know is refused when the contact is saved", async () => {
    const refused = await call("POST", "/api/contacts", { name: "Ninguém", number: "5531911112222" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: "ERR_WAPP_INVALID_CONTACT" });
  });
});
