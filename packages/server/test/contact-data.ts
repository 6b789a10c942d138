import { randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Connection, Ticket } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { customerNumber, customerWrites, eventually, listTickets } from "./conversation.js";
import type { TestUser } from "./factories.js";
import type { TestApp } from "./harness.js";

/** Helpers of the contact data tests (export, erase): a person with something in every table that can hold them. */

export const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d6f2d20000000049454e44ae426082",
  "hex",
);

export async function query<T = Record<string, unknown>>(t: TestApp, text: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.database.db.execute(text)) as unknown as { rows: T[] }).rows;
}

export interface Person {
  contactId: number;
  name: string;
  number: string;
  lid: string;
  /** A word only this person's messages hold (search, leftovers). */
  word: string;
  ticketId: number;
  /** The closed ticket before the current one. */
  oldTicketId: number;
  messageIds: number[];
  /** Stored files that are this person's (a received photo, a scheduled file). */
  mediaPaths: string[];
}

/**
 * A customer who wrote (text and a photo), was answered, got a private note with a mention, extra
 * info, tags, a scheduled message with a file, a rating on an older ticket, webhook deliveries,
 * import mappings, a LID mapping, a logged inbound event, and wrote in `group`.
 */
export async function seedPerson(
  t: TestApp,
  admin: TestUser,
  connection: Connection,
  group: { id: string; name: string },
): Promise<Person> {
  const number = customerNumber();
  const word = `w${randomBytes(5).toString("hex")}`;
  const name = `Maria ${word}`;
  const lid = `${BigInt(`0x${randomBytes(6).toString("hex")}`)}@lid`;

  await customerWrites(t, admin, connection.id, { from: number, name, body: `primeira ${word}` });
  await customerWrites(t, admin, connection.id, {
    from: number,
    name,
    body: `foto ${word}`,
    media: { mimetype: "image/png", filename: `foto-${word}.png`, dataBase64: PNG.toString("base64") },
  });
  await customerWrites(t, admin, connection.id, {
    from: group.id,
    participant: number,
    isGroup: true,
    groupName: group.name,
    body: `no grupo ${word}`,
  });
  await t.pipeline.idle();
  const ticket = await eventually(async () => {
    const found = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
      (x: Ticket) => x.contact.number === number,
    );
    expect(found).toBeDefined();
    return found!;
  });
  const contactId = ticket.contact.id;
  const accepted = await t.app.inject({
    method: "PUT",
    url: `/api/tickets/${ticket.id}`,
    headers: admin.auth,
    payload: { status: "open", userId: admin.id },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const reply = await t.app.inject({
    method: "POST",
    url: `/api/messages/${ticket.id}`,
    headers: admin.auth,
    payload: { body: `resposta ${word}` },
  });
  expect(reply.statusCode, reply.body).toBe(201);
  const edited = await t.app.inject({
    method: "PUT",
    url: `/api/contacts/${contactId}`,
    headers: admin.auth,
    payload: { email: `${word}@example.com`, extraInfo: [{ name: "CPF", value: `cpf ${word}` }] },
  });
  expect(edited.statusCode, edited.body).toBe(200);

  const [{ id: oldTicketId }] = await query<{ id: number }>(
    t,
    sql`insert into tickets (status, contact_id, whatsapp_id, last_message, rating, rated_at, closed_at)
        values ('closed', ${contactId}, ${connection.id}, ${`antiga ${word}`}, 5, now(), now()) returning id`,
  );
  await query(
    t,
    sql`insert into messages (ticket_id, contact_id, body, from_me) values (${oldTicketId}, ${contactId}, ${`antiga ${word}`}, false)`,
  );
  const [{ id: noteId }] = await query<{ id: number }>(
    t,
    sql`insert into messages (ticket_id, user_id, body, from_me, is_note) values (${ticket.id}, ${admin.id}, ${`nota ${word}`}, true, true)
        returning id`,
  );
  await query(t, sql`insert into note_mentions (message_id, user_id) values (${noteId}, ${admin.id})`);
  const [{ id: tagId }] = await query<{ id: number }>(
    t,
    sql`insert into tags (name, color) values (${`tag ${randomBytes(4).toString("hex")}`}, '#abcdef') returning id`,
  );
  await query(t, sql`insert into contact_tags (contact_id, tag_id) values (${contactId}, ${tagId})`);
  await query(t, sql`insert into ticket_tags (ticket_id, tag_id) values (${ticket.id}, ${tagId})`);
  const scheduled = await t.services.storage.save(Buffer.concat([PNG, Buffer.from(word)]), "png");
  await query(
    t,
    sql`insert into scheduled_messages (ticket_id, contact_id, whatsapp_id, user_id, body, media_path, media_name, media_mime, media_type, send_at)
        values (${ticket.id}, ${contactId}, ${connection.id}, ${admin.id}, ${`agendada ${word}`}, ${scheduled.path}, 'plano.png', 'image/png', 'image', now() + interval '30 days')`,
  );
  await query(
    t,
    sql`insert into ticket_ratings (ticket_id, contact_id, whatsapp_id, status, requested_at, expires_at, rating, rated_at)
        values (${oldTicketId}, ${contactId}, ${connection.id}, 'rated', now(), now(), 5, now())`,
  );

  const messageRows = await query<{ id: number; media_path: string | null }>(
    t,
    sql`select id, media_path from messages where contact_id = ${contactId} or ticket_id in (${ticket.id}, ${oldTicketId}) order by id`,
  );
  const messageIds = messageRows.map((r) => Number(r.id));
  const [{ id: webhookId }] = await query<{ id: number }>(
    t,
    sql`insert into webhooks (url, events, enabled, secret, secret_hint) values ('https://hooks.example.com', '{message.created}', false, 'x', 'x')
        returning id`,
  );
  for (const [event, entityId] of [
    ["message.created", messageIds[0]],
    ["ticket.created", ticket.id],
    ["contact.created", contactId],
  ] as const) {
    await query(
      t,
      sql`insert into webhook_deliveries (webhook_id, event, entity_id, status, body)
          values (${webhookId}, ${event}, ${entityId}, 'success', ${JSON.stringify({ number, name })})`,
    );
  }
  const source = `test-${word}`;
  await query(
    t,
    sql`insert into import_map (source, entity, source_id, target_id) values
        (${source}, 'contact', '1', ${contactId}), (${source}, 'ticket', '1', ${oldTicketId}), (${source}, 'message', '1', ${messageIds[0]})`,
  );
  await query(t, sql`update contacts set lid = ${lid} where id = ${contactId}`);
  await query(t, sql`insert into lid_mappings (lid, pn) values (${lid}, ${number})`);
  await query(
    t,
    sql`insert into inbound_events (whatsapp_id, kind, event_key, payload, status)
        values (${connection.id}, 'test.event', ${word}, ${JSON.stringify({ key: { remoteJid: `${number}@s.whatsapp.net` } })}::jsonb, 'done')`,
  );
  return {
    contactId,
    name,
    number,
    lid,
    word,
    ticketId: ticket.id,
    oldTicketId,
    messageIds,
    mediaPaths: [...messageRows.flatMap((r) => (r.media_path ? [r.media_path] : [])), scheduled.path],
  };
}

/** Rows of every table (audit trail included) whose JSON holds one of `needles`, by table. */
export async function rowsHolding(t: TestApp, needles: string[]): Promise<Record<string, number>> {
  const tables = await query<{ name: string }>(
    t,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const [{ n }] = await query<{ n: number | string }>(
      t,
      sql`select count(*) as n from ${sql.identifier(name)} x
          where exists (select 1 from unnest(${sql.param(needles)}::text[]) s where strpos(to_jsonb(x)::text, s) > 0)`,
    );
    if (Number(n) > 0) found[name] = Number(n);
  }
  return found;
}

/** The stored media keys, on the local disk or in the bucket. */
export async function storedKeys(t: TestApp, bucketKeys?: () => Promise<string[]>): Promise<string[]> {
  if (bucketKeys) return (await bucketKeys()).sort();
  const root = join(t.config.dataDir, "media");
  const all = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return all
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
    .sort();
}
