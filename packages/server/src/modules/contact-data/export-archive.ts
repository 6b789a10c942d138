import { extname } from "node:path";
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import type { ZipEntry } from "../../lib/zip-stream.js";
import { type MediaStorage, safeFileName } from "../../media/storage.js";

export const EXPORT_FORMAT = "zapdesk-contact-export";
export const EXPORT_VERSION = 1;
/** Messages read per query: memory stays flat however long the history. */
const PAGE = 500;

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Rows as JSON built by PostgreSQL itself (timestamps as ISO strings on every driver). */
async function jsonRows(db: Db, query: SQL): Promise<unknown[]> {
  return (await rows<{ j: string | object }>(db, query)).map((r) => (typeof r.j === "string" ? JSON.parse(r.j) : r.j));
}

interface MediaRef {
  key: string;
  file: string;
}

/** Where a stored file goes in the archive: `media/<message id>-<its name>`, never a path from outside. */
function archiveName(prefix: string, key: string, name: string | null): string {
  const ext = extname(key).slice(1) || "bin";
  return `media/${prefix}-${safeFileName(name ?? undefined, ext).replaceAll("/", "_")}`;
}

const MESSAGE_JSON = sql`json_build_object(
  'id', m.id, 'whatsappId', m.wid, 'createdAt', m.created_at, 'fromMe', m.from_me, 'automatic', m.from_bot,
  'sentBy', u.name, 'body', m.body, 'mediaType', m.media_type, 'fileName', m.media_name, 'mimeType', m.media_mime,
  'deleted', m.is_deleted, 'edited', m.is_edited, 'internalNote', m.is_note, 'reactions', m.reactions,
  'quotedMessageId', m.quoted_msg_id)::text`;

/** One page of messages after `afterId`, in id order, with their files. */
async function messagePage(db: Db, where: SQL, afterId: number) {
  const page = await rows<{ id: string | number; j: string; media_path: string | null; media_name: string | null }>(
    db,
    sql`select m.id, ${MESSAGE_JSON} as j, m.media_path, m.media_name
        from messages m left join users u on u.id = m.user_id
        where ${where} and m.id > ${afterId} order by m.id limit ${PAGE}`,
  );
  return page.map((r) => {
    const message = JSON.parse(r.j) as Record<string, unknown>;
    const file = r.media_path ? archiveName(String(r.id), r.media_path, r.media_name) : null;
    return { id: Number(r.id), message: { ...message, file }, media: file && r.media_path ? { key: r.media_path, file } : null };
  });
}

/**
 * `data.json`, written as it is read: the contact, everything attached to it, then each ticket
 * with its messages page by page, then what the person wrote in groups. `media` collects the
 * files the JSON names (one small record each), written after it.
 */
async function* dataJson(db: Db, contactId: number, media: MediaRef[], exportedAt: Date): AsyncGenerator<string> {
  const [contact] = await jsonRows(
    db,
    sql`select json_build_object('id', id, 'name', name, 'number', number, 'email', email, 'whatsappLid', lid,
          'whatsappBusinessId', bsuid, 'username', username, 'profilePicUrl', profile_pic_url,
          'owner', (select name from users where users.id = owner_user_id),
          'createdAt', created_at, 'updatedAt', updated_at)::text as j from contacts where id = ${contactId}`,
  );
  const sections: [string, SQL][] = [
    [
      "extraInfo",
      sql`select json_build_object('name', name, 'value', value, 'createdAt', created_at, 'updatedAt', updated_at)::text as j
          from contact_extra_info where contact_id = ${contactId} order by id`,
    ],
    [
      "tags",
      sql`select to_json(t.name)::text as j from contact_tags ct join tags t on t.id = ct.tag_id
          where ct.contact_id = ${contactId} order by t.name`,
    ],
    [
      "numberHistory",
      sql`select json_build_object('oldNumber', old_number, 'newNumber', new_number, 'changedBy', user_name,
          'changedAt', created_at)::text as j from contact_changes where contact_id = ${contactId} order by id`,
    ],
    [
      "ratings",
      sql`select json_build_object('ticketId', ticket_id, 'status', status, 'requestedAt', requested_at,
          'rating', rating, 'ratedAt', rated_at)::text as j from ticket_ratings where contact_id = ${contactId} order by id`,
    ],
    [
      "scheduledMessages",
      sql`select json_build_object('id', s.id, 'ticketId', s.ticket_id, 'body', s.body, 'sendAt', s.send_at,
          'status', s.status, 'scheduledBy', u.name, 'fileName', s.media_name, 'createdAt', s.created_at)::text as j
          from scheduled_messages s left join users u on u.id = s.user_id where s.contact_id = ${contactId} order by s.id`,
    ],
  ];
  yield `{"format":${JSON.stringify(EXPORT_FORMAT)},"version":${EXPORT_VERSION},"exportedAt":${JSON.stringify(exportedAt.toISOString())},`;
  yield `"contact":${JSON.stringify(contact)}`;
  for (const [name, query] of sections) yield `,${JSON.stringify(name)}:${JSON.stringify(await jsonRows(db, query))}`;

  // Files of scheduled messages (sent ones share their message's file, listed with the message).
  for (const s of await rows<{ id: number; media_path: string; media_name: string | null }>(
    db,
    sql`select id, media_path, media_name from scheduled_messages
        where contact_id = ${contactId} and media_path is not null and status <> 'sent' order by id`,
  )) {
    media.push({ key: s.media_path, file: archiveName(`scheduled-${s.id}`, s.media_path, s.media_name) });
  }

  // Issue 22 §3: what the person was asked and answered, their opt-outs and opt-ins, oldest first.
  const consent = await jsonRows(
    db,
    sql`select json_build_object('kind', r.kind, 'at', r.created_at, 'connection', w.name, 'queue', q.name,
          'ticketId', r.ticket_id, 'whatsappMessageId', coalesce(m.wid, r.message_wid), 'text', r.text)::text as j
        from consent_records r left join whatsapps w on w.id = r.whatsapp_id left join queues q on q.id = r.queue_id
        left join messages m on m.id = r.message_id where r.contact_id = ${contactId} order by r.id`,
  );
  yield `,"consent":${JSON.stringify(consent)},"tickets":[`;
  const ticketList = await jsonRows(
    db,
    sql`select json_build_object('id', t.id, 'status', t.status, 'createdAt', t.created_at, 'updatedAt', t.updated_at,
          'closedAt', t.closed_at, 'queue', q.name, 'connection', w.name, 'assignedTo', u.name, 'protocol', t.protocol,
          'rating', t.rating, 'ratedAt', t.rated_at,
          'tags', (select coalesce(json_agg(g.name order by g.name), '[]') from ticket_tags tt join tags g on g.id = tt.tag_id
                   where tt.ticket_id = t.id))::text as j
        from tickets t left join queues q on q.id = t.queue_id left join whatsapps w on w.id = t.whatsapp_id
        left join users u on u.id = t.user_id where t.contact_id = ${contactId} order by t.id`,
  );
  for (const [index, ticket] of ticketList.entries()) {
    const { id } = ticket as { id: number };
    const open = JSON.stringify(ticket).slice(0, -1);
    yield `${index ? "," : ""}${open},"messages":[`;
    yield* messagesOf(db, sql`m.ticket_id = ${id}`, media);
    yield "]}";
  }
  yield `],"groupMessages":[`;
  yield* messagesOf(
    db,
    sql`m.contact_id = ${contactId} and m.ticket_id not in (select id from tickets where contact_id = ${contactId})`,
    media,
    true,
  );
  yield "]}\n";
}

async function* messagesOf(db: Db, where: SQL, media: MediaRef[], withGroup = false): AsyncGenerator<string> {
  let afterId = 0;
  let first = true;
  for (;;) {
    const page = await messagePage(db, where, afterId);
    if (page.length === 0) return;
    const groups = withGroup
      ? new Map(
          (
            await rows<{ id: number; name: string }>(
              db,
              sql`select m.id, c.name from messages m join tickets t on t.id = m.ticket_id join contacts c on c.id = t.contact_id
                  where m.id = any(${sql.param(page.map((p) => p.id))}::bigint[])`,
            )
          ).map((r) => [Number(r.id), r.name]),
        )
      : undefined;
    const parts = page.map((p) => JSON.stringify(groups ? { ...p.message, group: groups.get(p.id) ?? null } : p.message));
    yield (first ? "" : ",") + parts.join(",");
    first = false;
    for (const p of page) if (p.media) media.push(p.media);
    afterId = page[page.length - 1].id;
  }
}

const README = `Zapdesk: data held about one contact / dados mantidos sobre um contato

data.json  everything stored about the contact: profile, extra information, tags, number history,
           ratings, scheduled messages, consent records, each conversation (ticket) with all its messages (including
           internal notes, marked "internalNote": true), and what the person wrote in groups.
           Times are UTC (ISO 8601).
media/     the files of those messages, named <message id>-<file name>; data.json names each one.
missing.json  files a message names that were no longer in storage (only when there are any).

data.json  tudo o que está guardado sobre o contato: perfil, informações extras, etiquetas, histórico de
           números, avaliações, mensagens agendadas, registros de consentimento, cada conversa (ticket) com todas as mensagens
           (notas internas marcadas com "internalNote": true) e o que a pessoa escreveu em grupos.
media/     os arquivos dessas mensagens, nomeados <id da mensagem>-<nome do arquivo>.
`;

/** The archive's entries, produced one at a time as the zip stream asks for them. */
export async function* contactArchive(
  deps: { db: Db; storage: MediaStorage },
  contactId: number,
  exportedAt: Date,
): AsyncGenerator<ZipEntry> {
  const media: MediaRef[] = [];
  yield { name: "README.txt", data: README, compress: true };
  yield { name: "data.json", data: dataJson(deps.db, contactId, media, exportedAt), compress: true };
  const missing: string[] = [];
  const seen = new Set<string>();
  for (const ref of media) {
    if (seen.has(ref.file)) continue;
    seen.add(ref.file);
    const stored = await deps.storage.open(ref.key);
    if (!stored) {
      missing.push(ref.file);
      continue;
    }
    yield { name: ref.file, data: stored.stream };
  }
  if (missing.length) yield { name: "missing.json", data: JSON.stringify({ files: missing }, null, 2), compress: true };
}
