import { q, type Run } from "./context.js";
import { str } from "./convert.js";
import type { Entity } from "./report.js";

export interface LinkTable {
  entity: Entity;
  /** The source's link table and its two columns, each with the import_map entity it points to. */
  table: string;
  left: { column: string; entity: string };
  right: { column: string; entity: string };
  /** Our table and its two columns. */
  target: string;
  targetLeft: string;
  targetRight: string;
  /** The source table of the left side, which carries the companyId. */
  parentTable: string;
}

/** A link table (no id of its own): rows whose both ends were imported; idempotent through the target's primary key. */
export async function importLinks(run: Run, link: LinkTable) {
  const { entity, table, left, right } = link;
  if (!run.has(table)) return;
  const where = run.multi
    ? `"${left.column}" in (select "id" from "${link.parentTable}" where "companyId" = ${run.company})`
    : "1=1";
  await run.scan(
    entity,
    table,
    `${run.keySelect(table, [left.column, right.column])}, "${left.column}" as "l", "${right.column}" as "r"`,
    [left.column, right.column],
    where,
    (rows) =>
      run.inBatch(async (tx) => {
        const lefts = await run.mapped(
          tx,
          left.entity,
          rows.map((r) => str(r.l)),
        );
        const rights = await run.mapped(
          tx,
          right.entity,
          rows.map((r) => str(r.r)),
        );
        const pairs: [number, number][] = [];
        for (const row of rows) {
          const l = lefts.get(str(row.l));
          const r = rights.get(str(row.r));
          if (l === undefined || r === undefined)
            run.skip(
              entity,
              `${str(row.l)}/${str(row.r)}`,
              `its ${l === undefined ? left.entity : right.entity} was not imported`,
            );
          else pairs.push([l, r]);
        }
        if (!pairs.length) return;
        const inserted = await q(
          tx,
          `insert into ${link.target} (${link.targetLeft}, ${link.targetRight}) select * from unnest($1::int[], $2::int[]) on conflict do nothing returning 1`,
          [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
        );
        run.counts(entity).imported += inserted.length;
        run.counts(entity).already += pairs.length - inserted.length;
      }),
  );
}
