import type { Contact, ContactChange, Ticket } from "@zapdesk/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  listTickets,
  makeSimulatorConnection,
  phoneReceived,
} from "../../../test/conversation.js";
import { makeAdmin, makeContact, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;
let agentA: TestUser;
let agentB: TestUser;
let whatsappId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  const queueA = await makeQueue(t, { name: "Queue A" });
  const queueB = await makeQueue(t, { name: "Queue B" });
  agentA = await makeUser(t, { queueIds: [queueA.id] });
  agentB = await makeUser(t, { queueIds: [queueB.id] });
  // One queue: every new conversation lands in queue A without a menu.
  whatsappId = (await makeSimulatorConnection(t, admin, { queueIds: [queueA.id] })).id;
});
afterAll(() => t.close());

const put = (who: TestUser, id: number, payload: object) =>
  t.app.inject({ method: "PUT", url: `/api/contacts/${id}`, headers: who.auth, payload });

/** A customer writes in: their contact and its pending ticket in queue A. */
async function conversation(): Promise<{ number: string; ticket: Ticket }> {
  const number = customerNumber();
  await customerWrites(t, admin, whatsappId, { from: number, name: "Customer", body: "Hello" });
  const ticket = await eventually(async () => {
    const found = (await listTickets(t, admin, { showAll: "true" })).tickets.find((x) => x.contact.number === number);
    expect(found).toBeDefined();
    return found as Ticket;
  });
  return { number, ticket };
}

/** The agent accepts the ticket (when still pending) and writes. */
async function reply(who: TestUser, ticketId: number, body: string) {
  const accepted = await t.app.inject({
    method: "PUT",
    url: `/api/tickets/${ticketId}`,
    headers: who.auth,
    payload: { status: "open", userId: who.id },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const res = await t.app.inject({ method: "POST", url: `/api/messages/${ticketId}`, headers: who.auth, payload: { body } });
  expect(res.statusCode, res.body).toBe(201);
}

const receivedBodies = async (to: string) => (await phoneReceived(t, admin, whatsappId, to)).map((m) => m.body);

describe("who may edit a contact", () => {
  it("an agent of another queue cannot edit a contact whose only ticket is in queue A", async () => {
    const { ticket } = await conversation();
    for (const payload of [{ name: "Renamed by B" }, { number: customerNumber() }, { extraInfo: [{ name: "x", value: "y" }] }]) {
      const res = await put(agentB, ticket.contact.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }
    const stored = (await t.app.inject({ method: "GET", url: `/api/contacts/${ticket.contact.id}`, headers: admin.auth })).json();
    expect(stored).toMatchObject({ name: ticket.contact.name, number: ticket.contact.number, extraInfo: [] });
  });

  it("an agent who can act on the ticket edits name, email and extra info, but not the number", async () => {
    const { number, ticket } = await conversation();
    const renamed = await put(agentA, ticket.contact.id, { name: "Maria A", number, extraInfo: [{ name: "CPF", value: "1" }] });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: "Maria A", number });

    const hijack = customerNumber();
    const refused = await put(agentA, ticket.contact.id, { number: hijack });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("ERR_CONTACT_NUMBER_ADMIN_ONLY");

    // The conversation still goes to the customer, never to the number the agent typed.
    await reply(agentA, ticket.id, "Reply after a refused number change");
    await eventually(async () => expect(await receivedBodies(number)).toContain("Reply after a refused number change"));
    expect(await receivedBodies(hijack)).toEqual([]);
  });

  it("a contact without an active ticket is for admins only", async () => {
    const contact = await makeContact(t, { number: customerNumber() });
    const res = await put(agentA, contact.id, { name: "Nobody's" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_NO_PERMISSION");
    expect((await put(admin, contact.id, { name: "Admin's" })).statusCode).toBe(200);
  });

  it("an admin changes the number explicitly: recorded, and the next reply goes to the new number", async () => {
    const { number, ticket } = await conversation();
    const newNumber = customerNumber();
    const changed = await put(admin, ticket.contact.id, { number: `+${newNumber}` });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((changed.json() as Contact).number).toBe(newNumber);
    // Saving the same number again changes nothing and records nothing.
    expect((await put(admin, ticket.contact.id, { number: newNumber, name: "Same number" })).statusCode).toBe(200);

    const history = await t.app.inject({ method: "GET", url: `/api/contacts/${ticket.contact.id}/changes`, headers: admin.auth });
    expect(history.statusCode).toBe(200);
    const changes = history.json().changes as ContactChange[];
    expect(changes).toEqual([
      {
        id: expect.any(Number),
        contactId: ticket.contact.id,
        userId: admin.id,
        userName: admin.name,
        oldNumber: number,
        newNumber,
        createdAt: expect.any(String),
      },
    ]);

    await reply(agentA, ticket.id, "Reply after the admin's change");
    await eventually(async () => expect(await receivedBodies(newNumber)).toContain("Reply after the admin's change"));
    expect(await receivedBodies(number)).not.toContain("Reply after the admin's change");
  });

  it("the change history is admin-only and answers for unknown contacts", async () => {
    const { ticket } = await conversation();
    const forbidden = await t.app.inject({
      method: "GET",
      url: `/api/contacts/${ticket.contact.id}/changes`,
      headers: agentA.auth,
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe("ERR_NO_PERMISSION");
    const missing = await t.app.inject({ method: "GET", url: "/api/contacts/999999/changes", headers: admin.auth });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe("ERR_NO_CONTACT_FOUND");
    expect((await t.app.inject({ method: "GET", url: `/api/contacts/${ticket.contact.id}/changes` })).statusCode).toBe(401);
  });

  it("a WhatsApp identity learned for the old number does not follow the contact to the new one", async () => {
    const { number, ticket } = await conversation();
    const lid = `${Date.now()}${Math.floor(Math.random() * 1000)}@lid`;
    await t.database.query("update contacts set lid = $1 where id = $2", [lid, ticket.contact.id]);
    const newNumber = customerNumber();
    expect((await put(admin, ticket.contact.id, { number: newNumber })).statusCode).toBe(200);
    const [row] = await t.database.query<{ lid: string | null }>("select lid from contacts where id = $1", [ticket.contact.id]);
    expect(row.lid).toBeNull();
    expect(number).not.toBe(newNumber);
  });
});
