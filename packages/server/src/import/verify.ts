import type { Db } from "../db/client.js";
import { q, type Run } from "./context.js";
import { bool, str } from "./convert.js";
import { ENTITIES, type Entity } from "./report.js";
import type { Row } from "./source.js";

/** Reconcile counts per table against import_map, and compare a sample of conversations message by message. */
export async function verify(run: Run, db: Db) {
  const entityKey: Partial<Record<Entity, string>> = {
    queues: "queue",
    users: "user",
    connections: "connection",
    quickAnswers: "quickAnswer",
    tags: "tag",
    contacts: "contact",
    contactFields: "contactField",
    tickets: "ticket",
    messages: "message",
    notes: "note",
    ratings: "rating",
    schedules: "schedule",
  };
  const skippedBy = new Map<string, number>();
  for (const s of run.report.skips) skippedBy.set(`${s.entity}|${s.sourceId}`, 1);
  for (const entity of ENTITIES) {
    const e = entityKey[entity];
    const c = run.counts(entity);
    if (!e) {
      run.report.verification.tables.push({
        entity,
        source: c.source,
        accounted: c.imported + c.already + c.skipped,
        ok: c.imported + c.already + c.skipped === c.source,
      });
      continue;
    }
    const [row] = await q<{ n: string }>(db, "select count(*) as n from import_map where source = $1 and entity = $2", [
      run.key,
      e,
    ]);
    const accounted = Number(row?.n ?? 0) + c.skipped;
    run.report.verification.tables.push({ entity, source: c.source, accounted, ok: accounted === c.source });
  }
  // A sample of conversations, message by message (body and direction, in order).
  const sample = await q<{ source_id: string; target_id: string }>(
    db,
    "select source_id, target_id from import_map where source = $1 and entity = 'ticket' order by md5(source_id) limit 5",
    [run.key],
  );
  for (const s of sample) {
    const sourceRows = await run.source.query<Row>(
      `select "id", "ticketId", "body", "fromMe" from "Messages" where "ticketId" = ? order by "id"`,
      [Number(s.source_id)],
    );
    const ids = sourceRows.map(run.messageSourceId);
    const mappedIds = await run.mapped(db, "message", ids);
    const targets = await q<{ id: string; body: string; from_me: boolean }>(
      db,
      "select id, body, from_me from messages where id = any($1::bigint[])",
      [[...mappedIds.values()]],
    );
    const byId = new Map(targets.map((t) => [Number(t.id), t]));
    let ok = true;
    sourceRows.forEach((r, i) => {
      const target = byId.get(mappedIds.get(ids[i] as string) ?? -1);
      const skipped = skippedBy.has(`messages|${ids[i]}`);
      if (skipped) return;
      if (!target || target.body !== str(r.body) || target.from_me !== bool(r.fromMe)) ok = false;
    });
    const [n] = await q<{ n: string }>(db, "select count(*) as n from messages where ticket_id = $1 and not is_note", [
      Number(s.target_id),
    ]);
    run.report.verification.sample.push({
      sourceTicket: s.source_id,
      ticket: Number(s.target_id),
      sourceMessages: sourceRows.length,
      messages: Number(n?.n ?? 0),
      ok,
    });
  }
  run.report.verification.complete =
    run.report.verification.tables.every((t) => t.ok) && run.report.verification.sample.every((s) => s.ok);
}
