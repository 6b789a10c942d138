import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, listen, type RecordingSocket } from "../../../test/sockets.js";

let t: TestApp;
let admin: TestUser;
let url: string;
const opened: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  url = await listen(t);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
});

const contactEvents = (socket: RecordingSocket) =>
  socket.received.filter((r) => r.event === "contactConsent").map((r) => r.payload as { contactId: number });

/** Issue 22 §3: the contact drawer refetches a contact's consent records when told they changed. */
describe("consent realtime", () => {
  for (const queues of [0, 2]) {
    it(`an opt-out and an opt-in are told to agents (${queues ? "one message at a time" : "the batch"}), nothing for other messages`, async () => {
      const queueIds: number[] = [];
      for (let i = 0; i < queues; i++) queueIds.push((await makeQueue(t)).id);
      const agent = await makeUser(t, { queueIds });
      const connection = await makeSimulatorConnection(t, admin, { queueIds, greetingMessage: queues ? "Escolha:" : "" });
      const socket = await connectAs(url, agent, opened);
      const from = customerNumber();
      await customerWrites(t, admin, connection.id, { from, body: "oi" });
      await customerWrites(t, admin, connection.id, { from, body: "Stop." });
      await eventually(() => expect(contactEvents(socket)).toHaveLength(1));
      const { contactId } = contactEvents(socket)[0];
      await customerWrites(t, admin, connection.id, { from, body: "voltei" });
      await eventually(() => expect(contactEvents(socket)).toEqual([{ contactId }, { contactId }]));
      const consent = await t.app.inject({ method: "GET", url: `/api/contacts/${contactId}/consent`, headers: agent.auth });
      expect(consent.json()).toMatchObject({ optedOutSince: null, records: [{ kind: "opted_in" }, { kind: "opted_out" }] });
    });
  }
});
