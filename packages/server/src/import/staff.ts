import { q, type Run } from "./context.js";
import { bool, date, freeColor, normaliseColor, str } from "./convert.js";
import { importLinks } from "./links.js";

/** Queues (a name already here is reused; a colour taken or invalid gets a free one, reported). */
export async function importQueues(run: Run) {
  const { report } = run;
  const takenColors = new Set(
    (await run.database.query<{ c: string }>("select lower(color) as c from queues union select lower(color) from tags")).map(
      (r) => r.c,
    ),
  );
  await run.scan(
    "queues",
    "Queues",
    `${run.keySelect("Queues", ["id"])}, "id", "name", ${run.col("Queues", "color")}, ${run.col("Queues", "greetingMessage")}`,
    ["id"],
    run.byCompany("Queues"),
    (rows) =>
      run.rowByRow("queues", rows, async (tx, row) => {
        const sid = str(row.id);
        if ((await run.mapped(tx, "queue", [sid])).size) return void run.counts("queues").already++;
        const name = str(row.name).trim() || `Queue ${sid}`;
        const [existing] = await q<{ id: number }>(tx, "select id from queues where lower(name) = lower($1)", [name]);
        if (existing) {
          run.counts("queues").merged++;
          report.merges.push({ entity: "queues", sourceId: sid, into: existing.id, reason: "a queue with this name exists" });
          return run.remember(tx, "queue", [{ sourceId: sid, targetId: existing.id, merged: true }]);
        }
        let color = normaliseColor(row.color);
        const inUse = color ? (await q(tx, "select 1 from queues where lower(color) = $1", [color])).length > 0 : false;
        if (!color || inUse) {
          const was = str(row.color);
          color = freeColor(takenColors, Number(sid));
          report.adjustments.push({
            entity: "queues",
            sourceId: sid,
            note: `colour ${was || "(none)"} ${inUse ? "is taken" : "is not a colour"}: ${color} given`,
          });
        }
        takenColors.add(color);
        const [created] = await q<{ id: number }>(
          tx,
          "insert into queues (name, color, greeting_message) values ($1, $2, $3) returning id",
          [name, color, str(row.greetingMessage)],
        );
        run.counts("queues").imported++;
        await run.remember(tx, "queue", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
      }),
  );
}

/** Staff: bcrypt hashes carried over; an email that already has an account here is reported, never overwritten. */
export async function importUsers(run: Run) {
  const { report } = run;
  await run.scan(
    "users",
    "Users",
    `${run.keySelect("Users", ["id"])}, "id", "name", "email", "passwordHash", ${run.col("Users", "profile")}, ${run.col("Users", "super")}, ${run.col("Users", "createdAt")}`,
    ["id"],
    run.byCompany("Users"),
    (rows) =>
      run.rowByRow("users", rows, async (tx, row) => {
        const sid = str(row.id);
        if ((await run.mapped(tx, "user", [sid])).size) return void run.counts("users").already++;
        const email = str(row.email).trim();
        if (!email) return run.skip("users", sid, "no email");
        const [existing] = await q<{ id: number }>(tx, "select id from users where lower(email) = lower($1)", [email]);
        if (existing) {
          run.counts("users").merged++;
          report.merges.push({
            entity: "users",
            sourceId: sid,
            into: existing.id,
            reason: `the email ${email} already has an account here: kept as it is, not overwritten`,
          });
          return run.remember(tx, "user", [{ sourceId: sid, targetId: existing.id, merged: true }]);
        }
        const profile = ["admin", "masteradmin"].includes(str(row.profile)) || bool(row.super) ? "admin" : "user";
        let hash = str(row.passwordHash);
        if (!/^\$2[aby]\$/.test(hash)) {
          hash = "!imported-without-password";
          report.adjustments.push({
            entity: "users",
            sourceId: sid,
            note: "no bcrypt password hash: the user must reset the password",
          });
        }
        const [created] = await q<{ id: number }>(
          tx,
          "insert into users (name, email, password_hash, profile, created_at) values ($1, $2, $3, $4, coalesce($5, now())) returning id",
          [str(row.name) || email, email, hash, profile, date(row.createdAt)],
        );
        run.counts("users").imported++;
        await run.remember(tx, "user", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
      }),
  );
  if (run.has("QueueOptions")) {
    const where = run.multi ? `"queueId" in (select "id" from "Queues" where "companyId" = ${run.company})` : "1=1";
    const [{ n }] = await run.source.query<{ n: string | number }>(`select count(*) as "n" from "QueueOptions" where ${where}`);
    if (Number(n)) {
      report.adjustments.push({
        entity: "queues",
        sourceId: "QueueOptions",
        note: `${n} chatbot menu options (QueueOptions) are not imported: set up the queue menu again`,
      });
    }
  }
  await importLinks(run, {
    entity: "userQueues",
    table: "UserQueues",
    left: { column: "userId", entity: "user" },
    right: { column: "queueId", entity: "queue" },
    target: "user_queues",
    targetLeft: "user_id",
    targetRight: "queue_id",
    parentTable: "Users",
  });
}
