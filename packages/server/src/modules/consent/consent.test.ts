import { type Connection, type ContactConsent, OPTED_OUT_CODE, type Schedule, type Ticket } from "@zapdesk/core";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  listTickets,
  makeSimulatorConnection,
  phoneReceived,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import type { InboundMessage } from "../../channels/channel.js";
import { consentRecords, contacts, messages, scheduledMessages, ticketRatings } from "../../db/schema.js";

const HOUR = 3_600_000;
const clock = manualClock(new Date(Date.now() + HOUR));
let t: TestApp;
let admin: TestUser;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ clock, accessTtlSeconds: 30 * 86_400 });
  admin = await makeAdmin(t);
  const settings = await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth });
  token = settings.json().find((s: { key: string }) => s.key === "userApiToken").value;
});
afterAll(() => t.close());

async function contactIdOf(number: string): Promise<number> {
  const [row] = await t.database.db.select({ id: contacts.id }).from(contacts).where(eq(contacts.number, number));
  return row.id;
}

async function consentOf(number: string): Promise<ContactConsent> {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/contacts/${await contactIdOf(number)}/consent`,
    headers: admin.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ContactConsent;
}

async function ticketOf(number: string): Promise<Ticket> {
  const found = (await listTickets(t, admin, { showAll: "true", searchParam: number })).tickets;
  return found[0];
}

const received = async (connectionId: number, to: string) => (await phoneReceived(t, admin, connectionId, to)).map((m) => m.body);

const apiSend = (number: string, body: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/messages/send",
    headers: { authorization: `Bearer ${token}` },
    payload: { number, body },
  });

async function configure(connection: Connection, changes: Record<string, unknown>) {
  const res = await t.app.inject({ method: "PUT", url: `/api/whatsapp/${connection.id}`, headers: admin.auth, payload: changes });
  expect(res.statusCode, res.body).toBe(200);
}

/**
 * The one-message road is taken by a connection with a queue menu (two queues), the batched one by a
 * connection with at most one queue (customers' plain messages, even alone, go set-based).
 */
const ROADS = [
  { road: "one message at a time", queues: 2 },
  { road: "the batch", queues: 0 },
] as const;

async function connectionFor(queues: number, overrides: { farewellMessage?: string; isDefault?: boolean } = {}) {
  const queueIds: number[] = [];
  for (let i = 0; i < queues; i++) queueIds.push((await makeQueue(t)).id);
  return makeSimulatorConnection(t, admin, { queueIds, greetingMessage: queues > 1 ? "Escolha:" : "", ...overrides });
}

describe("opt-out words", () => {
  for (const { road, queues } of ROADS) {
    it(`on ${road}: case, accents and punctuation aside, stop the automatic sends; an agent's answer goes; writing again lifts it`, async () => {
      const connection = await connectionFor(queues, { farewellMessage: "Tchau!", isDefault: true });
      await configure(connection, { ratingMessage: "De 1 a 5, como foi?", ratingTimeoutMinutes: 60 });
      const from = customerNumber();
      await customerWrites(t, admin, connection.id, { from, name: "Ana", body: "oi" });
      await customerWrites(t, admin, connection.id, { from, name: "Ana", body: "  Párár! " });
      const out = await consentOf(from);
      expect(out.optedOutSince).not.toBeNull();
      expect(out.records[0]).toMatchObject({
        kind: "opted_out",
        text: expect.stringMatching(/Párár!/),
        whatsappId: connection.id,
      });
      expect(out.records[0].messageWid).toBeTruthy();

      // The agent takes the conversation and answers: never blocked.
      const ticket = await ticketOf(from);
      const opened = await t.app.inject({
        method: "PUT",
        url: `/api/tickets/${ticket.id}`,
        headers: admin.auth,
        payload: { status: "open", userId: admin.id },
      });
      expect(opened.statusCode, opened.body).toBe(200);
      const answer = await t.app.inject({
        method: "POST",
        url: `/api/messages/${ticket.id}`,
        headers: admin.auth,
        payload: { body: "Claro, Ana, não enviaremos mais avisos." },
      });
      expect(answer.statusCode, answer.body).toBe(201);
      await eventually(async () =>
        expect(await received(connection.id, from)).toContain("Claro, Ana, não enviaremos mais avisos."),
      );

      // An API send is refused with a coded 409, and nothing is stored for it.
      const refused = await apiSend(from, "Promoção!");
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error).toBe("ERR_CONTACT_OPTED_OUT");

      // A schedule falls due: it fails with the reason, and nothing goes.
      const scheduled = await t.app.inject({
        method: "POST",
        url: "/api/schedules",
        headers: admin.auth,
        payload: { ticketId: ticket.id, body: "Lembrete agendado", sendAt: new Date(clock.now().getTime() + HOUR).toISOString() },
      });
      expect(scheduled.statusCode, scheduled.body).toBe(201);
      clock.advance(HOUR + 1000);
      await t.services.schedules.sweep();
      const [schedule] = await t.database.db
        .select()
        .from(scheduledMessages)
        .where(eq(scheduledMessages.id, (scheduled.json() as Schedule).id));
      expect(schedule).toMatchObject({ status: "failed", messageId: null });
      expect(schedule.error).toMatch(/opted out/);

      // Resolving: no CSAT question is asked, and the farewell is skipped with its reason.
      const closed = await t.app.inject({
        method: "PUT",
        url: `/api/tickets/${ticket.id}`,
        headers: admin.auth,
        payload: { status: "closed", userId: admin.id },
      });
      expect(closed.statusCode, closed.body).toBe(200);
      await t.outbox.drain();
      const rating = await t.database.db.select().from(ticketRatings).where(eq(ticketRatings.ticketId, ticket.id));
      expect(rating).toEqual([]);
      const farewell = await eventually(async () => {
        const [row] = await t.database.db
          .select()
          .from(messages)
          .where(and(eq(messages.ticketId, ticket.id), eq(messages.body, "Tchau!")));
        expect(row.ack).toBe(-1);
        return row;
      });
      expect(farewell).toMatchObject({ errorCode: OPTED_OUT_CODE });
      expect(farewell.errorTitle).toMatch(/opted out/);
      const phone = await received(connection.id, from);
      expect(phone).not.toContain("Tchau!");
      expect(phone).not.toContain("Lembrete agendado");
      expect(phone).not.toContain("De 1 a 5, como foi?");
      expect(phone.filter((body) => body === "Escolha:" || body.startsWith("Escolha:"))).toHaveLength(queues > 1 ? 1 : 0);

      // The customer writes again: the opt-out is lifted, and automatic sends go again.
      await customerWrites(t, admin, connection.id, { from, name: "Ana", body: "voltei" });
      const back = await consentOf(from);
      expect(back.optedOutSince).toBeNull();
      expect(back.records.map((r) => r.kind).slice(0, 2)).toEqual(["opted_in", "opted_out"]);
      const sent = await apiSend(from, "Seu pedido chegou");
      expect(sent.statusCode, sent.body).toBe(201);
      await eventually(async () => expect(await received(connection.id, from)).toContain("Seu pedido chegou"));
    });
  }

  it("on the batch: a burst of several customers' words is read in order, in one transaction", async () => {
    const connection = await connectionFor(0);
    const [a, b] = [customerNumber(), customerNumber()];
    let serial = 0;
    const message = (from: string, body: string): InboundMessage => {
      serial += 1;
      return {
        wid: `OPT-${from}-${serial}`,
        chat: from,
        isGroup: false,
        sender: { number: from, name: "Cliente" },
        fromMe: false,
        timestamp: new Date(clock.now().getTime() + serial),
        type: "chat",
        body,
      };
    };
    const burst = [message(a, "oi"), message(b, "SAIR"), message(a, "stop"), message(b, "mudei de ideia")];
    await Promise.all(burst.map((m) => t.pipeline.onMessage(connection.id, m)));
    const stored = await t.database.db
      .select({ tx: sql<string>`${messages}.xmin::text` })
      .from(messages)
      .where(
        inArray(
          messages.wid,
          burst.map((m) => m.wid),
        ),
      );
    expect(stored).toHaveLength(4);
    expect(new Set(stored.map((r) => r.tx)).size).toBe(1);
    expect((await consentOf(a)).optedOutSince).not.toBeNull();
    const bRecords = await t.database.db
      .select({ kind: consentRecords.kind, wid: consentRecords.messageWid })
      .from(consentRecords)
      .where(eq(consentRecords.contactId, await contactIdOf(b)))
      .orderBy(asc(consentRecords.id));
    expect(bRecords).toEqual([
      { kind: "opted_out", wid: burst[1].wid },
      { kind: "opted_in", wid: burst[3].wid },
    ]);
    expect((await consentOf(b)).optedOutSince).toBeNull();
  });

  it("on the batch: one customer's opt-out is theirs only, another customer's message records nothing", async () => {
    const connection = await connectionFor(0);
    const [a, b] = [customerNumber(), customerNumber()];
    await customerWrites(t, admin, connection.id, { from: a, body: "SAIR" });
    expect((await consentOf(a)).optedOutSince).not.toBeNull();
    await customerWrites(t, admin, connection.id, { from: b, body: "oi" });
    const other = await consentOf(b);
    expect(other.records).toEqual([]);
    expect(other.optedOutSince).toBeNull();
    expect((await consentOf(a)).optedOutSince).not.toBeNull();
  });

  it("takes the words an admin sets, install-wide", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/consent/opt-out-words",
      headers: admin.auth,
      payload: { words: ["CHEGA", "descadastrar"] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().optOutWords).toEqual(["CHEGA", "descadastrar"]);
    const connection = await connectionFor(0);
    const [custom, old] = [customerNumber(), customerNumber()];
    await customerWrites(t, admin, connection.id, { from: custom, body: "Descadastrar." });
    await customerWrites(t, admin, connection.id, { from: old, body: "STOP" });
    expect((await consentOf(custom)).optedOutSince).not.toBeNull();
    expect((await consentOf(old)).optedOutSince).toBeNull();
    await t.app.inject({
      method: "PUT",
      url: "/api/consent/opt-out-words",
      headers: admin.auth,
      payload: { words: ["SAIR", "PARAR", "STOP"] },
    });
  });
});

describe("the consent message", () => {
  for (const { road, queues } of ROADS) {
    it(`on ${road}: asked before the first conversation, the answer stored with its time and message id, not asked again`, async () => {
      const connection = await connectionFor(queues);
      const created = await t.app.inject({
        method: "POST",
        url: "/api/consent/configs",
        headers: admin.auth,
        payload: {
          whatsappId: connection.id,
          message: "Olá {{name}}! Tratamos seus dados conforme {{link}}. Responda SIM para aceitar ou NÃO para recusar.",
          privacyUrl: "https://exemplo.com.br/privacidade",
          acceptWords: ["SIM", "ACEITO"],
          declineWords: ["NÃO"],
        },
      });
      expect(created.statusCode, created.body).toBe(200);
      const [yes, no] = [customerNumber(), customerNumber()];
      for (const from of [yes, no]) await customerWrites(t, admin, connection.id, { from, name: "Léo", body: "bom dia" });
      const question =
        "Olá Léo! Tratamos seus dados conforme https://exemplo.com.br/privacidade. Responda SIM para aceitar ou NÃO para recusar.";
      await eventually(async () => expect(await received(connection.id, yes)).toContain(question));
      expect((await consentOf(yes)).records.map((r) => r.kind)).toEqual(["asked"]);

      const wid = await customerWrites(t, admin, connection.id, { from: yes, name: "Léo", body: "Sim" });
      await customerWrites(t, admin, connection.id, { from: no, name: "Léo", body: "nao" });
      const accepted = (await consentOf(yes)).records[0];
      expect(accepted).toMatchObject({ kind: "accepted", messageWid: wid, text: "Sim", whatsappId: connection.id });
      expect(Date.parse(accepted.createdAt)).not.toBeNaN();
      expect((await consentOf(no)).records[0]).toMatchObject({ kind: "declined", text: "nao" });

      // More messages, and a later conversation: the question is not asked again.
      await customerWrites(t, admin, connection.id, { from: yes, body: "tudo certo" });
      const ticket = await ticketOf(yes);
      for (const status of ["open", "closed"]) {
        const res = await t.app.inject({
          method: "PUT",
          url: `/api/tickets/${ticket.id}`,
          headers: admin.auth,
          payload: { status, userId: admin.id },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      clock.advance(24 * HOUR);
      await customerWrites(t, admin, connection.id, { from: yes, body: "outra dúvida" });
      const asked = (await received(connection.id, yes)).filter((b) => b === question);
      expect(asked).toHaveLength(1);
    });
  }

  it("a queue's message replaces its connection's for the queue's conversations", async () => {
    const queue = await makeQueue(t);
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    for (const payload of [
      { whatsappId: connection.id, message: "Conexão: aceita?", acceptWords: ["sim"], declineWords: ["não"] },
      {
        queueId: queue.id,
        message: "Fila: aceita? {{link}}",
        privacyUrl: "https://x.example/p",
        acceptWords: ["ok"],
        declineWords: ["não"],
      },
    ]) {
      const res = await t.app.inject({ method: "POST", url: "/api/consent/configs", headers: admin.auth, payload });
      expect(res.statusCode, res.body).toBe(200);
    }
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "oi" });
    await eventually(async () => expect(await received(connection.id, from)).toEqual(["Fila: aceita? https://x.example/p"]));
    await customerWrites(t, admin, connection.id, { from, body: "OK!" });
    expect((await consentOf(from)).records[0]).toMatchObject({ kind: "accepted", queueId: queue.id, queue: queue.name });
  });

  it("is admins' to configure: coded 4xx for a scope that is not exactly one, a second message, an agent", async () => {
    const agent = await makeUser(t);
    expect((await t.app.inject({ method: "GET", url: "/api/consent/settings", headers: agent.auth })).statusCode).toBe(403);
    const base = { message: "Aceita?", acceptWords: ["sim"], declineWords: ["não"] };
    const connection = await connectionFor(0);
    const both = await t.app.inject({
      method: "POST",
      url: "/api/consent/configs",
      headers: admin.auth,
      payload: { ...base, whatsappId: connection.id, queueId: (await makeQueue(t)).id },
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toBe("ERR_CONSENT_SCOPE");
    const missing = await t.app.inject({
      method: "POST",
      url: "/api/consent/configs",
      headers: admin.auth,
      payload: { ...base, whatsappId: 999_999 },
    });
    expect(missing.json().error).toBe("ERR_CONSENT_SCOPE");
    const first = await t.app.inject({
      method: "POST",
      url: "/api/consent/configs",
      headers: admin.auth,
      payload: { ...base, whatsappId: connection.id },
    });
    expect(first.statusCode, first.body).toBe(200);
    const again = await t.app.inject({
      method: "POST",
      url: "/api/consent/configs",
      headers: admin.auth,
      payload: { ...base, whatsappId: connection.id },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("ERR_CONSENT_CONFIG_EXISTS");
    const off = await t.app.inject({
      method: "PUT",
      url: `/api/consent/configs/${first.json().id}`,
      headers: admin.auth,
      payload: { enabled: false },
    });
    expect(off.json()).toMatchObject({ enabled: false });
    const gone = await t.app.inject({ method: "DELETE", url: "/api/consent/configs/999999", headers: admin.auth });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe("ERR_NO_CONSENT_CONFIG_FOUND");
    // Agents read a contact's records (they see contacts); a missing contact is a 404.
    const none = await t.app.inject({ method: "GET", url: "/api/contacts/999999/consent", headers: agent.auth });
    expect(none.json().error).toBe("ERR_NO_CONTACT_FOUND");
  });
});
