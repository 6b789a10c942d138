import { randomBytes } from "node:crypto";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeContact, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, flush, listen, ticketEvents } from "../../../test/sockets.js";

// Issue 11 item 2: tags on tickets and contacts.
let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let url: string;
const opened: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  agent = await makeUser(t);
  url = await listen(t);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, who: TestUser, payload?: object) =>
  t.app.inject({ method, url, headers: who.auth, payload });
const unique = (prefix: string) => `${prefix} ${randomBytes(3).toString("hex")}`;
async function makeTag(name = unique("Tag"), color = "#3366CC") {
  const res = await call("POST", "/api/tags", admin, { name, color });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; name: string; color: string };
}
async function ticketIn(connectionId: number) {
  const from = customerNumber();
  await customerWrites(t, admin, connectionId, { from, body: "hello" });
  const { tickets } = await listTickets(t, admin, { showAll: "true", status: "pending" });
  return tickets.find((x) => x.contact.number === from)!;
}

describe("tags", () => {
  it("admins create, rename, recolour and delete; everyone signed in reads", async () => {
    const tag = await makeTag(unique("Vip"), "#FF0000");
    expect(tag).toEqual({ id: expect.any(Number), name: expect.stringMatching(/^Vip /), color: "#ff0000" });
    const listed = await call("GET", "/api/tags", agent);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().tags).toContainEqual(tag);
    const renamed = await call("PUT", `/api/tags/${tag.id}`, admin, { name: `${tag.name} 2`, color: "#0f0" });
    expect(renamed.json()).toEqual({ id: tag.id, name: `${tag.name} 2`, color: "#0f0" });
    expect((await call("DELETE", `/api/tags/${tag.id}`, admin)).statusCode).toBe(200);
    expect((await call("GET", "/api/tags", agent)).json().tags.map((x: { id: number }) => x.id)).not.toContain(tag.id);
    for (const [method, payload] of [["PUT", { name: "Whatever" }], ["DELETE"]] as const) {
      const res = await call(method, `/api/tags/${tag.id}`, admin, payload);
      expect(res.statusCode, method).toBe(404);
      expect(res.json().error).toBe("ERR_NO_TAG_FOUND");
    }
  });

  it("refuses writes by agents with 403 (permission tags:manage)", async () => {
    const tag = await makeTag();
    for (const [method, url, payload] of [
      ["POST", "/api/tags", { name: unique("Nope"), color: "#123456" }],
      ["PUT", `/api/tags/${tag.id}`, { name: unique("Nope") }],
      ["DELETE", `/api/tags/${tag.id}`, undefined],
    ] as const) {
      const res = await call(method, url, agent, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }
    const anonymous = await t.app.inject({ method: "GET", url: "/api/tags" });
    expect(anonymous.statusCode).toBe(401);
  });

  it("answers 409 ERR_TAG_NAME_EXISTS for a name taken in any case, and 400 for a bad colour or name", async () => {
    const tag = await makeTag();
    const dup = await call("POST", "/api/tags", admin, { name: ` ${tag.name.toUpperCase()} `, color: "#000000" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe("ERR_TAG_NAME_EXISTS");
    const other = await makeTag();
    const renamed = await call("PUT", `/api/tags/${other.id}`, admin, { name: tag.name.toLowerCase() });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().error).toBe("ERR_TAG_NAME_EXISTS");
    for (const color of ["red", "#12345", "#gggggg", "123456", ""]) {
      const res = await call("POST", "/api/tags", admin, { name: unique("Colour"), color });
      expect(res.statusCode, color).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
      expect(res.json().details[0].path).toEqual(["color"]);
    }
    const noName = await call("POST", "/api/tags", admin, { name: "  ", color: "#123456" });
    expect(noName.statusCode).toBe(400);
    const badId = await call("PUT", "/api/tags/abc", admin, { name: "x" });
    expect(badId.statusCode).toBe(400);
  });

  it("sets a ticket's tags (alone or with a status change), returns them everywhere and filters the list by any of them", async () => {
    const [billing, urgent, other] = [await makeTag(unique("Billing")), await makeTag(unique("Urgent")), await makeTag()];
    const connection = await makeSimulatorConnection(t, admin);
    const first = await ticketIn(connection.id);
    const second = await ticketIn(connection.id);
    const untagged = await ticketIn(connection.id);
    expect(first.tags).toEqual([]);

    const set = await call("PUT", `/api/tickets/${first.id}`, agent, { tagIds: [urgent.id, billing.id, urgent.id] });
    expect(set.statusCode, set.body).toBe(200);
    expect(
      set
        .json()
        .tags.map((x: { id: number }) => x.id)
        .sort(),
    ).toEqual([billing.id, urgent.id].sort());
    expect(set.json().status).toBe("pending");
    const combined = await call("PUT", `/api/tickets/${second.id}`, agent, {
      status: "open",
      userId: agent.id,
      tagIds: [urgent.id],
    });
    expect(combined.statusCode, combined.body).toBe(200);
    expect(combined.json()).toMatchObject({ status: "open", userId: agent.id, tags: [urgent] });

    const shown = await call("GET", `/api/tickets/${first.id}`, admin);
    expect(shown.json().tags).toEqual(expect.arrayContaining([billing, urgent]));

    const ids = async (query: Record<string, string>) => (await listTickets(t, admin, { showAll: "true", ...query })).tickets;
    const byBilling = await ids({ tagIds: JSON.stringify([billing.id]) });
    expect(byBilling.map((x) => x.id)).toEqual([first.id]);
    expect(byBilling[0].tags).toEqual(expect.arrayContaining([billing, urgent]));
    // Any of the tags: a ticket with one of them matches.
    const byEither = (await ids({ tagIds: JSON.stringify([billing.id, urgent.id]) })).map((x) => x.id);
    expect(byEither.sort()).toEqual([first.id, second.id].sort());
    expect(await ids({ tagIds: JSON.stringify([other.id]) })).toEqual([]);
    // Combined with the other filters and with a search.
    expect((await ids({ status: "open", tagIds: JSON.stringify([urgent.id]) })).map((x) => x.id)).toEqual([second.id]);
    const searched = await ids({ searchParam: first.contact.number, tagIds: JSON.stringify([billing.id]) });
    expect(searched.map((x) => x.id)).toEqual([first.id]);
    expect(searched[0].tags).toHaveLength(2);
    const all = (await ids({ tagIds: "[]" })).map((x) => x.id);
    expect(all).toContain(untagged.id);
    // Bad encodings are 400, like queueIds.
    for (const encoded of ["%5Babc", "%5B%22x%22%5D", "%5B0%5D"]) {
      const bad = await call("GET", `/api/tickets?tagIds=${encoded}`, admin);
      expect(bad.statusCode, encoded).toBe(400);
      expect(bad.json().error).toBe("ERR_VALIDATION");
    }

    // Clearing.
    const cleared = await call("PUT", `/api/tickets/${first.id}`, agent, { tagIds: [] });
    expect(cleared.json().tags).toEqual([]);
  });

  it("refuses unknown tag ids without changing anything, and a ticket the agent cannot reach", async () => {
    const tag = await makeTag();
    const connection = await makeSimulatorConnection(t, admin);
    const ticket = await ticketIn(connection.id);
    await call("PUT", `/api/tickets/${ticket.id}`, admin, { tagIds: [tag.id] });
    const unknown = await call("PUT", `/api/tickets/${ticket.id}`, admin, { tagIds: [tag.id, 999999] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe("ERR_NO_TAG_FOUND");
    expect((await call("GET", `/api/tickets/${ticket.id}`, admin)).json().tags).toEqual([tag]);
    const notIds = await call("PUT", `/api/tickets/${ticket.id}`, admin, { tagIds: ["1"] });
    expect(notIds.statusCode).toBe(400);

    const queue = await makeQueue(t);
    const queued = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const foreign = await ticketIn(queued.id);
    expect(foreign.queueId).toBe(queue.id);
    const refused = await call("PUT", `/api/tickets/${foreign.id}`, agent, { tagIds: [tag.id] });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error).toBe("ERR_NO_TICKET_FOUND");
    expect((await call("GET", `/api/tickets/${foreign.id}`, admin)).json().tags).toEqual([]);
  });

  it("sends tags in realtime ticket events, and a tag event on create, update and delete", async () => {
    const tag = await makeTag();
    const connection = await makeSimulatorConnection(t, admin);
    const ticket = await ticketIn(connection.id);
    const socket = await connectAs(url, admin, opened);
    await call("PUT", `/api/tickets/${ticket.id}`, agent, { tagIds: [tag.id] });
    await eventually(() =>
      expect(ticketEvents(socket, ticket.id)).toContainEqual({
        action: "update",
        ticket: expect.objectContaining({ tags: [tag] }),
      }),
    );
    // A customer's new message announces the ticket with its tags too.
    await customerWrites(t, admin, connection.id, { from: ticket.contact.number, body: "again" });
    await eventually(() =>
      expect(ticketEvents(socket, ticket.id)).toContainEqual({
        action: "update",
        ticket: expect.objectContaining({ lastMessage: "again", tags: [tag] }),
      }),
    );

    const agentSocket = await connectAs(url, agent, opened);
    const created = await makeTag();
    await call("PUT", `/api/tags/${created.id}`, admin, { color: "#abcdef" });
    await call("DELETE", `/api/tags/${tag.id}`, admin);
    await flush(t, admin, [agentSocket]);
    const tagEvents = agentSocket.received.filter((r) => r.event === "tag").map((r) => r.payload);
    expect(tagEvents).toEqual([
      { action: "create", tag: created },
      { action: "update", tag: { ...created, color: "#abcdef" } },
      { action: "delete", tagId: tag.id },
    ]);
    // Deleted: gone from the ticket.
    expect((await call("GET", `/api/tickets/${ticket.id}`, admin)).json().tags).toEqual([]);
  });

  it("tags contacts under the contact edit rules", async () => {
    const tag = await makeTag();
    const contact = await makeContact(t);
    const set = await call("PUT", `/api/contacts/${contact.id}`, admin, { tagIds: [tag.id] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().tags).toEqual([tag]);
    expect((await call("GET", `/api/contacts/${contact.id}`, agent)).json().tags).toEqual([tag]);
    const listed = await call("GET", `/api/contacts?searchParam=${encodeURIComponent(contact.name)}`, agent);
    expect(listed.json().contacts.find((c: { id: number }) => c.id === contact.id).tags).toEqual([tag]);
    // An agent without an active ticket of this contact may not edit it.
    const refused = await call("PUT", `/api/contacts/${contact.id}`, agent, { tagIds: [] });
    expect(refused.statusCode).toBe(403);
    const unknown = await call("PUT", `/api/contacts/${contact.id}`, admin, { tagIds: [999999] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe("ERR_NO_TAG_FOUND");
    await call("DELETE", `/api/tags/${tag.id}`, admin);
    expect((await call("GET", `/api/contacts/${contact.id}`, admin)).json().tags).toEqual([]);
  });

  it("lists the tag routes in the OpenAPI document", async () => {
    const paths = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json().paths;
    expect(Object.keys(paths["/api/tags"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(paths["/api/tags/{id}"]).sort()).toEqual(["delete", "put"]);
    const update = paths["/api/tickets/{id}"].put.requestBody.content["application/json"].schema;
    expect(Object.keys(update.properties)).toContain("tagIds");
  });
});
