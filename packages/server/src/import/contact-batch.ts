import { twinOf } from "../channels/chat-address.js";
import type { LidIndex } from "./contacts.js";
import { type Pair, q, type Run } from "./context.js";
import { bool, date, digits, str } from "./convert.js";
import type { Row } from "./source.js";

/**
 * A batch of contacts with one lookup and one insert (the same rules as importContact); false,
 * with nothing kept, when it failed and the row-by-row path must take over.
 */
export async function contactBatch(run: Run, { lidOf }: LidIndex, rows: Row[]): Promise<boolean> {
  return run.attempt("contacts", () =>
    run.inBatch(async (tx) => {
      const done = await run.mapped(
        tx,
        "contact",
        rows.map((r) => str(r.id)),
      );
      const fresh = rows.filter((r) => !done.has(str(r.id)));
      run.counts("contacts").already += rows.length - fresh.length;
      const prepared: { row: Row; sid: string; isGroup: boolean; number: string; twin?: string; lid?: string }[] = [];
      for (const row of fresh) {
        const sid = str(row.id);
        const isGroup = bool(row.isGroup);
        const raw = str(row.number).trim();
        const number = isGroup ? raw.split("@")[0] || raw : digits(raw.split("@")[0] ?? "");
        if (!number) {
          run.skip("contacts", sid, "no number");
          continue;
        }
        const lid = lidOf.get(sid);
        prepared.push({
          row,
          sid,
          isGroup,
          number,
          twin: isGroup ? undefined : twinOf(number),
          lid: lid ? `${lid}@lid` : undefined,
        });
      }
      if (!prepared.length) return;
      const numbers = prepared.flatMap((p) => [p.number, ...(p.twin ? [p.twin] : []), ...(p.lid ? [p.lid] : [])]);
      const lids = prepared.flatMap((p) => (p.lid ? [p.lid] : []));
      const existing = await q<{ id: number; number: string; lid: string | null; is_group: boolean }>(
        tx,
        // Joined through the unique btree indexes: as `number = any(…)` the planner may pick the
        // trigram GIN index of a table it has not analyzed yet, which takes seconds per batch.
        `select c.id, c.number, c.lid, c.is_group from unnest($1::text[]) as u(n) join contacts c on c.number = u.n
         union select c.id, c.number, c.lid, c.is_group from unnest($2::text[]) as u(n) join contacts c on c.lid = u.n`,
        [numbers, lids],
      );
      const byNumber = new Map(existing.map((c) => [c.number, c]));
      const byLid = new Map(existing.filter((c) => c.lid).map((c) => [c.lid as string, c]));
      const newIds = await q<{ id: string }>(
        tx,
        "select nextval(pg_get_serial_sequence('contacts', 'id')) as id from generate_series(1, $1::int)",
        [prepared.length],
      );
      const values: unknown[][] = [];
      const pairs: Pair[] = [];
      const lidUpdates: [string, number][] = [];
      for (const [i, p] of prepared.entries()) {
        let into: { id: number; lid: string | null } | undefined;
        let reason = "";
        const same = byNumber.get(p.number);
        const twin = p.twin ? byNumber.get(p.twin) : undefined;
        const byAlias = p.lid ? (byLid.get(p.lid) ?? byNumber.get(p.lid)) : undefined;
        if (same) [into, reason] = [same, "a contact with this number exists"];
        else if (twin && !twin.is_group) [into, reason] = [twin, `Brazilian ninth-digit twin of ${p.twin}`];
        else if (byAlias) [into, reason] = [byAlias, `the same WhatsApp LID ${(p.lid as string).replace("@lid", "")}`];
        if (into) {
          run.counts("contacts").merged++;
          run.report.merges.push({ entity: "contacts", sourceId: p.sid, into: into.id, reason });
          if (p.lid && !into.lid && !byLid.has(p.lid)) {
            lidUpdates.push([p.lid, into.id]);
            into.lid = p.lid;
            byLid.set(p.lid, { ...(into as { id: number; lid: string }), number: "", is_group: false });
          }
          pairs.push({ sourceId: p.sid, targetId: into.id, merged: true });
          continue;
        }
        const id = Number((newIds[i] as { id: string }).id);
        const row = { id, number: p.number, lid: p.lid ?? null, is_group: p.isGroup };
        byNumber.set(p.number, row);
        if (p.lid) byLid.set(p.lid, row);
        values.push([
          id,
          str(p.row.name).trim() || p.number,
          p.number,
          str(p.row.email),
          /^https?:\/\//.test(str(p.row.profilePicUrl)) ? str(p.row.profilePicUrl) : "",
          p.isGroup,
          p.lid ?? null,
          date(p.row.createdAt) ?? new Date(),
          date(p.row.updatedAt) ?? new Date(),
        ]);
        pairs.push({ sourceId: p.sid, targetId: id, merged: false });
      }
      if (values.length) {
        const column = (i: number) => values.map((v) => v[i]);
        await q(
          tx,
          `insert into contacts (id, name, number, email, profile_pic_url, is_group, lid, created_at, updated_at)
           select * from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::timestamptz[], $9::timestamptz[])`,
          Array.from({ length: 9 }, (_, i) => column(i)),
        );
        run.counts("contacts").imported += values.length;
      }
      for (const [lid, id] of lidUpdates) {
        await q(
          tx,
          "update contacts set lid = $1 where id = $2 and lid is null and not exists (select 1 from contacts where lid = $1)",
          [lid, id],
        );
      }
      await run.remember(tx, "contact", pairs);
    }),
  );
}
