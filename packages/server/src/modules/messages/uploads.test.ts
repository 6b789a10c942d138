import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { multipart } from "../../../test/multipart.js";

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let outsider: TestUser;
let queueId: number;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  queueId = (await makeQueue(t)).id;
  agent = await makeUser(t, { queueIds: [queueId] });
  outsider = await makeUser(t, { queueIds: [(await makeQueue(t)).id] });
  connectionId = (await makeSimulatorConnection(t, admin, { isDefault: true })).id;
});
afterAll(() => t.close());

/** Every file under the media folder, however deep. */
const storedFiles = () => {
  try {
    return readdirSync(join(t.config.dataDir, "media"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
      .length;
  } catch {
    return 0;
  }
};

async function ticketInQueue(status: "open" | "closed" = "open") {
  const from = customerNumber();
  await customerWrites(t, admin, connectionId, { from, body: "hello" });
  const ticket = (await listTickets(t, admin, { showAll: "true", searchParam: from })).tickets[0];
  const steps = [
    { queueId, status: "pending" },
    { status: "open", userId: agent.id },
    ...(status === "closed" ? [{ status }] : []),
  ];
  for (const payload of steps) {
    const moved = await t.app.inject({ method: "PUT", url: `/api/tickets/${ticket.id}`, headers: admin.auth, payload });
    expect(moved.statusCode, moved.body).toBe(200);
  }
  return { ticket, from };
}

const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(64 * 1024, 32)]);
const pdfPart = { name: "medias", value: PDF, filename: "invoice.pdf", type: "application/pdf" };

function upload(ticketId: number, user: TestUser, parts: Parameters<typeof multipart>[0]) {
  const body = multipart(parts);
  return t.app.inject({
    method: "POST",
    url: `/api/messages/${ticketId}`,
    headers: { ...user.auth, ...body.headers },
    payload: body.payload,
  });
}

describe("refused uploads leave nothing in the media folder", () => {
  it("stores nothing for a user without access, a closed ticket or bad input", async () => {
    const { ticket } = await ticketInQueue();
    const other = await ticketInQueue();
    const [foreign] = (await t.app.inject({ method: "GET", url: `/api/messages/${other.ticket.id}`, headers: admin.auth })).json()
      .messages;
    const before = storedFiles();

    const forbidden = await upload(ticket.id, outsider, [pdfPart, pdfPart]);
    expect(forbidden.json().error).toBe("ERR_NO_TICKET_FOUND");
    const tooLong = await upload(ticket.id, agent, [{ name: "body", value: "x".repeat(30_001) }, pdfPart]);
    expect(tooLong.json().details[0].message).toBe("Too Long!");
    const quoted = await upload(ticket.id, agent, [{ name: "quotedMsgId", value: String(foreign.id) }, pdfPart]);
    expect(quoted.json().details[0].path).toEqual(["quotedMsg", "id"]);
    const wrongField = await upload(ticket.id, agent, [pdfPart, { ...pdfPart, name: "avatar" }]);
    expect(wrongField.statusCode).toBe(400);
    const closed = await ticketInQueue("closed");
    const refused = await upload(closed.ticket.id, agent, [pdfPart]);
    expect(refused.statusCode).toBe(409);
    expect(storedFiles()).toBe(before);

    // What is accepted is stored: the count above would have seen files.
    const accepted = await upload(ticket.id, agent, [{ name: "body", value: "the invoice" }, pdfPart]);
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(storedFiles()).toBe(before + 1);
  });

  it("removes the stored files when the send fails after storing them", async () => {
    const settings = await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth });
    const token = (settings.json() as { key: string; value: string }[]).find((s) => s.key === "userApiToken")!.value;
    const body = multipart([{ name: "number", value: "1234567890123456789" }, { name: "body", value: "x" }, pdfPart, pdfPart]);
    const before = storedFiles();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: `Bearer ${token}`, ...body.headers },
      payload: body.payload,
    });
    expect(res.json().error).toBe("ERR_WAPP_INVALID_CONTACT");
    expect(storedFiles()).toBe(before);
  });
});
