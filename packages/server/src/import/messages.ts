import type { Db } from "../db/client.js";
import { failure, type Pair, q, type Run } from "./context.js";
import { bool, date, int, MEDIA_TYPE, originalTimestamp, str } from "./convert.js";
import { copyClient, insertMessages } from "./copy.js";
import { copyMedia } from "./media.js";
import type { Row } from "./source.js";

/**
 * Messages in whole batches (one insert each, the same WhatsApp message stored once), each in the
 * conversation it belongs to, with its original send time and its file copied; a batch that
 * fails is retried row by row, so a bad row is reported and never costs the others.
 */
export async function importMessages(run: Run) {
  const M = "Messages";
  // Paged in the source's primary key order (Ticketz: (id, ticketId)), which its index answers:
  // ordered by a column without an index, every page sorted the whole table again.
  const keys = await run.keysOf(M, ["ticketId", "id"]);
  const select = [
    run.keySelect(M, keys),
    `"id"`,
    `"ticketId"`,
    run.col(M, "contactId"),
    `"body"`,
    `"fromMe"`,
    run.col(M, "read"),
    run.col(M, "ack"),
    run.col(M, "mediaType"),
    run.col(M, "mediaUrl"),
    run.col(M, "isDeleted"),
    run.col(M, "isEdited"),
    run.col(M, "isPrivate"),
    run.col(M, "userId"),
    run.col(M, "dataJson"),
    run.col(M, "wid", "waId"),
    `"createdAt"`,
    `"updatedAt"`,
  ].join(", ");
  const where = run.multi
    ? run.has(M, "companyId")
      ? `"companyId" = ${run.company}`
      : `"ticketId" in (select "id" from "Tickets" where "companyId" = ${run.company})`
    : "1=1";
  // A first import has nothing to look up: only a run resuming an earlier one asks which rows it has.
  const [earlier] = await q<{ n: string }>(
    run.outer ?? run.database.db,
    "select count(*) as n from (select 1 from import_map where source = $1 and entity = 'message' limit 1) x",
    [run.key],
  );
  const resuming = Number(earlier?.n) > 0;
  await run.scan("messages", M, select, keys, where, async (rows) => {
    const insertBatch = async (batch: Row[], tx: Db) => {
      const ids = batch.map(run.messageSourceId);
      const done = resuming ? await run.mapped(tx, "message", ids) : new Map<string, number>();
      const fresh = batch.filter((r) => !done.has(run.messageSourceId(r)));
      run.counts("messages").already += batch.length - fresh.length;
      if (!fresh.length) return;
      const tickets = await run.mapped(tx, "ticket", [...new Set(fresh.map((r) => str(r.ticketId)))]);
      // SaaS baseline: the session (TicketTraking) each message belongs to, by its time.
      const sessionsOf = new Map<string, { start: number; target: number }[]>();
      if (run.splitSessions && tickets.size) {
        const sourceTickets = [...tickets.keys()];
        const sessions = await run.source.query(
          `select "id", "ticketId", "startedAt", "createdAt" from "TicketTraking" where "ticketId" in (${sourceTickets.map(() => "?").join(", ")}) order by "id"`,
          sourceTickets.map(Number),
        );
        const targets = await run.mapped(
          tx,
          "session",
          sessions.map((r) => str(r.id)),
        );
        for (const session of sessions) {
          const target = targets.get(str(session.id));
          if (target === undefined) continue;
          const list = sessionsOf.get(str(session.ticketId)) ?? [];
          list.push({ start: (date(session.startedAt) ?? date(session.createdAt) ?? new Date(0)).getTime(), target });
          sessionsOf.set(str(session.ticketId), list);
        }
      }
      const sessionTargets = [...sessionsOf.values()].flat().map((s) => s.target);
      const ticketRows = tickets.size
        ? await q<{ id: number; whatsapp_id: number | null; contact_id: number; created_at: Date }>(
            tx,
            "select id, whatsapp_id, contact_id, created_at from tickets where id = any($1::int[])",
            [[...tickets.values(), ...sessionTargets]],
          )
        : [];
      const ticketInfo = new Map(ticketRows.map((t) => [t.id, t]));
      const contactsMap = await run.mapped(tx, "contact", [...new Set(fresh.map((r) => str(r.contactId)).filter(Boolean))]);
      const usersMap = await run.mapped(tx, "user", [...new Set(fresh.map((r) => str(r.userId)).filter(Boolean))]);
      const values: unknown[][] = [];
      const order: string[] = [];
      for (const row of fresh) {
        const sid = run.messageSourceId(row);
        const known = (run.has(M, "dataJson") ? originalTimestamp(row.dataJson) : null) ?? date(row.createdAt);
        let ticketId = tickets.get(str(row.ticketId));
        const sessions = sessionsOf.get(str(row.ticketId));
        if (sessions?.length) {
          const at = known?.getTime() ?? Number.NEGATIVE_INFINITY;
          ticketId = (sessions.filter((x) => x.start <= at).at(-1) ?? (sessions[0] as { target: number })).target;
        }
        const info = ticketId === undefined ? undefined : ticketInfo.get(ticketId);
        if (!info) {
          run.skip("messages", sid, `its ticket ${str(row.ticketId)} was not imported`);
          continue;
        }
        // An unreadable date (MySQL's 0000-00-00, a broken dataJson): the conversation's start, not
        // the import's time, which would count it in today's figures.
        const sent = known ?? new Date(info.created_at);
        if (!known) {
          run.report.adjustments.push({
            entity: "messages",
            sourceId: sid,
            note: `its date (${str(row.createdAt) || "none"}) cannot be read: dated at the start of its conversation`,
          });
        }
        const media = await copyMedia(run, row, sid);
        let ack = int(row.ack) ?? 0;
        if (run.ticketz) ack -= 1;
        ack = Math.max(0, Math.min(4, ack));
        const mediaType = MEDIA_TYPE[str(row.mediaType)] ?? (str(row.mediaType) ? "document" : "chat");
        values.push([
          run.has(M, "wid") ? str(row.waId) || null : str(row.id),
          info.whatsapp_id,
          info.id,
          contactsMap.get(str(row.contactId)) ?? info.contact_id,
          usersMap.get(str(row.userId)) ?? null,
          str(row.body),
          bool(row.fromMe),
          row.read === null ? true : bool(row.read),
          ack,
          media ? mediaType : "chat",
          media?.path ?? null,
          media?.name ?? null,
          media?.error ?? null,
          bool(row.isDeleted),
          bool(row.isEdited),
          bool(row.isPrivate),
          sent,
          date(row.updatedAt) ?? sent,
        ]);
        order.push(sid);
      }
      if (!values.length) return;
      // Ids drawn first: each source row knows its new id, and a row the insert skipped (the
      // same WhatsApp message already stored) is told apart by its id missing from RETURNING.
      const newIds = await q<{ id: string }>(
        tx,
        "select nextval(pg_get_serial_sequence('messages', 'id')) as id from generate_series(1, $1::int)",
        [values.length],
      );
      values.forEach((v, i) => {
        v.unshift(Number((newIds[i] as { id: string }).id));
      });
      // A whole batch is copied (COPY into a staging table, then one INSERT … SELECT); a row retried
      // alone after its batch failed takes the multi-row insert.
      const created = await insertMessages(tx, values, batch.length > 1 ? copyClient(tx) : undefined);
      const pairs: Pair[] = [];
      for (let i = 0; i < values.length; i++) {
        const v = values[i] as unknown[];
        const sid = order[i] as string;
        if (created.has(v[0] as number)) {
          run.counts("messages").imported++;
          pairs.push({ sourceId: sid, targetId: v[0] as number, merged: false });
          continue;
        }
        const [existing] = await q<{ id: string }>(tx, "select id from messages where whatsapp_id = $1 and wid = $2", [
          v[2],
          v[1],
        ]);
        if (existing) {
          run.counts("messages").merged++;
          run.report.merges.push({
            entity: "messages",
            sourceId: sid,
            into: Number(existing.id),
            reason: "the same WhatsApp message (id and connection) is already stored",
          });
          pairs.push({ sourceId: sid, targetId: Number(existing.id), merged: true });
        } else run.skip("messages", sid, "not stored (conflict)");
      }
      await run.remember(tx, "message", pairs);
    };
    if (await run.attempt("messages", () => run.inBatch((tx) => insertBatch(rows, tx)))) return;
    for (const row of rows) {
      try {
        await run.inBatch((tx) => insertBatch([row], tx));
      } catch (error) {
        run.skip("messages", run.messageSourceId(row), failure(error));
      }
    }
  });
}

export async function linkQuotes(run: Run) {
  const M = "Messages";
  if (!run.has(M, "quotedMsgId")) return;
  const where = `"quotedMsgId" is not null${run.multi && run.has(M, "companyId") ? ` and "companyId" = ${run.company}` : ""}`;
  const keys = await run.keysOf(M, ["ticketId", "id"]);
  await run.pages(M, `${run.keySelect(M, keys)}, "ticketId", "id", "quotedMsgId"`, keys, where, (rows) =>
    run.inBatch(async (tx) => {
      const own = rows.map(run.messageSourceId);
      const quoted = rows.map((r) => (run.compositeMessageIds ? `${str(r.ticketId)}:${str(r.quotedMsgId)}` : str(r.quotedMsgId)));
      const ownMap = await run.mapped(tx, "message", own);
      const quotedMap = await run.mapped(tx, "message", quoted);
      const pairs: [number, number][] = [];
      rows.forEach((_, i) => {
        const a = ownMap.get(own[i] as string);
        const b = quotedMap.get(quoted[i] as string);
        if (a !== undefined && b !== undefined && a !== b) pairs.push([a, b]);
      });
      if (pairs.length) {
        await q(
          tx,
          `update messages m set quoted_msg_id = p.q from unnest($1::bigint[], $2::bigint[]) as p(id, q)
           where m.id = p.id and m.quoted_msg_id is null`,
          [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
        );
      }
    }),
  );
}
