import { q, type Run } from "./context.js";
import { bool, normaliseColor, str } from "./convert.js";

/** Quick answers (Community/Press `QuickAnswers.shortcut`, SaaS line `QuickMessages.shortcode`). */
export async function importQuickAnswers(run: Run) {
  const { report } = run;
  const qa = run.has("QuickAnswers")
    ? { table: "QuickAnswers", shortcut: "shortcut" }
    : { table: "QuickMessages", shortcut: "shortcode" };
  if (!run.has(qa.table)) return;
  await run.scan(
    "quickAnswers",
    qa.table,
    `${run.keySelect(qa.table, ["id"])}, "id", "${qa.shortcut}" as "shortcut", "message", ${run.col(qa.table, "isOficial")}, ${run.col(qa.table, "mediaPath")}`,
    ["id"],
    run.byCompany(qa.table),
    (rows) =>
      run.rowByRow("quickAnswers", rows, async (tx, row) => {
        const sid = str(row.id);
        if ((await run.mapped(tx, "quickAnswer", [sid])).size) return void run.counts("quickAnswers").already++;
        if (bool(row.isOficial))
          return run.skip("quickAnswers", sid, "a Meta message template (synced from the Cloud API, not imported)");
        const shortcut = str(row.shortcut).replace(/^\//, "").trim();
        if (!shortcut) return run.skip("quickAnswers", sid, "no shortcut");
        if (row.mediaPath) {
          report.adjustments.push({
            entity: "quickAnswers",
            sourceId: sid,
            note: `its attachment ${str(row.mediaPath)} is not carried over`,
          });
        }
        const [existing] = await q<{ id: number }>(tx, "select id from quick_answers where shortcut = $1 and message = $2", [
          shortcut,
          str(row.message),
        ]);
        if (existing) {
          run.counts("quickAnswers").merged++;
          report.merges.push({
            entity: "quickAnswers",
            sourceId: sid,
            into: existing.id,
            reason: "the same quick answer exists",
          });
          return run.remember(tx, "quickAnswer", [{ sourceId: sid, targetId: existing.id, merged: true }]);
        }
        const [created] = await q<{ id: number }>(
          tx,
          "insert into quick_answers (shortcut, message) values ($1, $2) returning id",
          [shortcut, str(row.message)],
        );
        run.counts("quickAnswers").imported++;
        await run.remember(tx, "quickAnswer", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
      }),
  );
}

/** Tags (a name already here is reused); their links come after contacts and tickets. */
export async function importTags(run: Run) {
  if (!run.has("Tags", "name")) return;
  await run.scan(
    "tags",
    "Tags",
    `${run.keySelect("Tags", ["id"])}, "id", "name", ${run.col("Tags", "color")}`,
    ["id"],
    run.byCompany("Tags"),
    (rows) =>
      run.rowByRow("tags", rows, async (tx, row) => {
        const sid = str(row.id);
        if ((await run.mapped(tx, "tag", [sid])).size) return void run.counts("tags").already++;
        const name = str(row.name).trim();
        if (!name) return run.skip("tags", sid, "no name");
        const [existing] = await q<{ id: number }>(tx, "select id from tags where lower(name) = lower($1)", [name]);
        if (existing) {
          run.counts("tags").merged++;
          run.report.merges.push({ entity: "tags", sourceId: sid, into: existing.id, reason: "a tag with this name exists" });
          return run.remember(tx, "tag", [{ sourceId: sid, targetId: existing.id, merged: true }]);
        }
        const [created] = await q<{ id: number }>(tx, "insert into tags (name, color) values ($1, $2) returning id", [
          name,
          normaliseColor(row.color) ?? "#888888",
        ]);
        run.counts("tags").imported++;
        await run.remember(tx, "tag", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
      }),
  );
}
