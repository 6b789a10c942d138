import type { Contact, Ticket } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/conversation.js";
import { makeAdmin, makeContact, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, listen } from "../../../test/sockets.js";
import { auditLog, contacts } from "../../db/schema.js";
import { insertTicketIfNoneActive } from "../tickets/tickets.repo.js";
import { setContactOwner } from "./contact-owner.js";

// Issue 23 §5: a contact's owner — who may set it, the filters, the realtime update and the resolve setting.
let t: TestApp;
let admin: TestUser;
let ana: TestUser;
let bia: TestUser;
let url: string;
const opened: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ start: false });
  admin = await makeAdmin(t);
  ana = await makeUser(t);
  bia = await makeUser(t);
  url = await listen(t);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
});

type Method = "GET" | "PUT" | "DELETE";
const call = (method: Method, path: string, who: TestUser, payload?: object, query?: Record<string, string>) =>
  t.app.inject({ method, url: `/api${path}`, headers: who.auth, payload, query });
const setOwner = (contactId: number, userId: unknown, who: TestUser = admin) =>
  call("PUT", `/contacts/${contactId}/owner`, who, { userId });
const ownerOf = async (contactId: number) =>
  (await t.database.db.select().from(contacts).where(eq(contacts.id, contactId)))[0]?.ownerUserId;
const listed = async (who: TestUser, owner: string, searchParam?: string) => {
  const res = await call("GET", "/contacts", who, undefined, { owner, ...(searchParam ? { searchParam } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().contacts as Contact[]).map((c) => c.id);
};

async function openTicket(contactId: number, who: TestUser) {
  const row = await insertTicketIfNoneActive(t.database.db, {
    contactId,
    whatsappId: null,
    status: "open",
    isGroup: false,
    userId: who.id,
  });
  return row!;
}
const resolve = (ticketId: number, who: TestUser) => call("PUT", `/tickets/${ticketId}`, who, { status: "closed" });

describe("setting a contact's owner", () => {
  it("an admin sets and clears anyone; the contact shows the owner; the trail records it", async () => {
    const contact = await makeContact(t);
    const res = await setOwner(contact.id, ana.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: contact.id, ownerId: ana.id, owner: { id: ana.id, name: ana.name } });
    expect((await call("GET", `/contacts/${contact.id}`, bia)).json()).toMatchObject({ owner: { id: ana.id } });
    expect((await setOwner(contact.id, bia.id)).json()).toMatchObject({ ownerId: bia.id });
    expect((await setOwner(contact.id, null)).json()).toMatchObject({ ownerId: null, owner: null });
    const trail = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(contact.id)));
    expect(trail.filter((e) => e.action === "contact.ownerChanged").map((e) => e.details)).toEqual([
      { from: null, to: ana.id, source: "manual" },
      { from: ana.id, to: bia.id, source: "manual" },
      { from: bia.id, to: null, source: "manual" },
    ]);
  });

  it("refuses bad input with coded errors", async () => {
    const contact = await makeContact(t);
    expect((await setOwner(contact.id, "me")).statusCode).toBe(400);
    expect((await call("PUT", `/contacts/${contact.id}/owner`, admin, {})).statusCode).toBe(400);
    expect((await setOwner(contact.id, 999999)).json().error).toBe("ERR_NO_USER_FOUND");
    expect((await setOwner(999999, ana.id)).json().error).toBe("ERR_NO_CONTACT_FOUND");
    expect((await call("GET", "/contacts", admin, undefined, { owner: "someone" })).statusCode).toBe(400);
  });

  it("an agent takes an unowned contact and lets go of their own, never someone else's", async () => {
    const contact = await makeContact(t);
    const taken = await makeContact(t);
    // Naming someone else is for admins.
    const other = await setOwner(contact.id, bia.id, ana);
    expect([other.statusCode, other.json().error]).toEqual([403, "ERR_CONTACT_OWNER_ADMIN_ONLY"]);
    expect(await ownerOf(contact.id)).toBeNull();
    expect((await setOwner(contact.id, ana.id, ana)).json()).toMatchObject({ ownerId: ana.id });
    // Bia can neither take Ana's customer nor let it go for her.
    const take = await setOwner(contact.id, bia.id, bia);
    expect([take.statusCode, take.json().error]).toEqual([409, "ERR_CONTACT_OWNER_TAKEN"]);
    const release = await setOwner(contact.id, null, bia);
    expect([release.statusCode, release.json().error]).toEqual([409, "ERR_CONTACT_OWNER_TAKEN"]);
    expect(await ownerOf(contact.id)).toBe(ana.id);
    // Ana lets go; an admin gives another to Ana, which Bia cannot take either.
    expect((await setOwner(contact.id, null, ana)).json()).toMatchObject({ ownerId: null });
    await setOwner(taken.id, ana.id);
    expect((await setOwner(taken.id, bia.id, bia)).statusCode).toBe(409);
  });

  it("every signed-in screen hears the contact change", async () => {
    const contact = await makeContact(t);
    const socket = await connectAs(url, bia, opened);
    await setOwner(contact.id, ana.id);
    await eventually(() =>
      expect(
        socket.received.some(
          (r) =>
            r.event === "contact" &&
            (r.payload as { contact?: Contact }).contact?.id === contact.id &&
            (r.payload as { contact: Contact }).contact.owner?.id === ana.id,
        ),
      ).toBe(true),
    );
  });

  it("the function rules will call sets the owner, and onlyIfNone leaves an owned contact alone", async () => {
    const contact = await makeContact(t);
    const db = t.database.db;
    expect(
      await db.transaction((tx) => setContactOwner(tx, contact.id, ana.id, { source: "rule", onlyIfNone: true })),
    ).toMatchObject({
      changed: true,
      to: ana.id,
    });
    expect(
      await db.transaction((tx) => setContactOwner(tx, contact.id, bia.id, { source: "rule", onlyIfNone: true })),
    ).toMatchObject({
      changed: false,
      to: ana.id,
    });
    expect(await ownerOf(contact.id)).toBe(ana.id);
  });

  it("is in the OpenAPI document, with its body and the contacts' owner filter", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; requestBody?: unknown; tags?: string[] }>>;
    };
    const put = doc.paths["/api/contacts/{id}/owner"]?.put;
    expect(put?.tags).toEqual(["contacts"]);
    expect(put?.requestBody).toBeDefined();
    expect(doc.paths["/api/contacts"]?.get?.parameters?.map((p) => p.name)).toContain("owner");
    expect(doc.paths["/api/tickets"]?.get?.parameters?.map((p) => p.name)).toContain("myCustomers");
  });

  it("a deleted user's contacts are left without an owner", async () => {
    const leaving = await makeUser(t);
    const contact = await makeContact(t);
    await setOwner(contact.id, leaving.id);
    expect((await call("DELETE", `/users/${leaving.id}`, admin)).statusCode).toBe(200);
    expect(await ownerOf(contact.id)).toBeNull();
  });
});

describe("my customers", () => {
  it("the contacts list filters by owner (a user, me, none)", async () => {
    const cara = await makeUser(t);
    const [mine, unowned] = [await makeContact(t), await makeContact(t)];
    await setOwner(mine.id, cara.id);
    expect(await listed(admin, String(cara.id))).toEqual([mine.id]);
    expect(await listed(cara, "me")).toEqual([mine.id]);
    const none = await listed(admin, "none");
    expect(none).toContain(unowned.id);
    expect(none).not.toContain(mine.id);
    // And with a search (its count and page in one statement, contacts.repo.ts).
    const both = [mine, unowned].map((c) => c.name);
    expect(await listed(admin, String(cara.id), both[0])).toEqual([mine.id]);
    expect(await listed(cara, "me", both[1])).toEqual([]);
    expect(await listed(admin, "none", both[1])).toEqual([unowned.id]);
    expect(await listed(admin, "none", both[0])).toEqual([]);
  });

  it("the ticket list shows only the tickets of the user's own customers", async () => {
    const dani = await makeUser(t);
    const [mine, theirs] = [await makeContact(t), await makeContact(t)];
    await setOwner(mine.id, dani.id);
    const ticket = await openTicket(mine.id, dani);
    await openTicket(theirs.id, dani);
    const res = await call("GET", "/tickets", dani, undefined, { status: "open", myCustomers: "true" });
    expect(res.statusCode, res.body).toBe(200);
    const found = res.json().tickets as Ticket[];
    expect(found.map((x) => x.id)).toEqual([ticket.id]);
    expect(found[0].contact.ownerId).toBe(dani.id);
    expect((await call("GET", "/tickets", dani, undefined, { status: "open" })).json().count).toBe(2);
  });
});

describe("the first agent who resolves becomes the owner (setting ownerOnResolve)", () => {
  const setting = async (value: string) =>
    expect((await call("PUT", "/settings/ownerOnResolve", admin, { value })).statusCode).toBe(200);

  it("is off by default: resolving leaves the contact unowned", async () => {
    const setting = (await call("GET", "/settings", admin)).json() as { key: string; value: string }[];
    expect(setting.find((s) => s.key === "ownerOnResolve")?.value).toBe("disabled");
    const contact = await makeContact(t);
    expect((await resolve((await openTicket(contact.id, ana)).id, ana)).statusCode).toBe(200);
    expect(await ownerOf(contact.id)).toBeNull();
  });

  it("on: the agent who resolves an unowned contact's ticket becomes its owner; later resolves change nothing", async () => {
    await setting("enabled");
    try {
      expect((await call("PUT", "/settings/ownerOnResolve", admin, { value: "maybe" })).statusCode).toBe(400);
      expect((await call("PUT", "/settings/ownerOnResolve", ana, { value: "disabled" })).statusCode).toBe(403);
      const contact = await makeContact(t);
      const socket = await connectAs(url, admin, opened);
      expect((await resolve((await openTicket(contact.id, ana)).id, ana)).statusCode).toBe(200);
      expect(await ownerOf(contact.id)).toBe(ana.id);
      await eventually(() =>
        expect(
          socket.received.some((r) => r.event === "contact" && (r.payload as { contact?: Contact }).contact?.ownerId === ana.id),
        ).toBe(true),
      );
      // Bia resolves the next conversation: Ana stays the owner.
      expect((await resolve((await openTicket(contact.id, bia)).id, bia)).statusCode).toBe(200);
      expect(await ownerOf(contact.id)).toBe(ana.id);
    } finally {
      await setting("disabled");
    }
  });
});
