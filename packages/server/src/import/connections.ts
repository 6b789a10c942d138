import { q, type Run } from "./context.js";
import { bool, str } from "./convert.js";
import { importLinks } from "./links.js";
import { adoptSession, notAdoptable, readSession } from "./sessions.js";

/** Connections come in as QR connections to be linked again (other channels skipped, Cloud API tokens never copied). */
export async function importConnections(run: Run) {
  const { report } = run;
  if (!run.has("Whatsapps")) return;
  const cloud = run.has("Whatsapps", "phone_number_id");
  const col = (c: string) => run.col("Whatsapps", c);
  const adopt = !!run.options.adoptSessions;
  const cannotAdopt = adopt ? notAdoptable(run) : undefined;
  const session = adopt && !cannotAdopt ? `, ${col("session")}` : "";
  await run.scan(
    "connections",
    "Whatsapps",
    `${run.keySelect("Whatsapps", ["id"])}, "id", "name", ${col("greetingMessage")}, ${col("farewellMessage")}, ${col("ratingMessage")}, ${col("isDefault")}, ${col("phone_number_id")}, ${col("waba_id")}, ${col("channel")}${session}`,
    ["id"],
    run.byCompany("Whatsapps"),
    (rows) =>
      run.rowByRow("connections", rows, async (tx, row) => {
        const sid = str(row.id);
        if ((await run.mapped(tx, "connection", [sid])).size) return void run.counts("connections").already++;
        const channel = str(row.channel);
        if (channel && channel !== "whatsapp")
          return run.skip("connections", sid, `a ${channel} channel, which Zapdesk does not run`);
        const name = str(row.name).trim() || `WhatsApp ${sid}`;
        const [existing] = await q<{ id: number }>(tx, "select id from whatsapps where lower(name) = lower($1)", [name]);
        if (existing) {
          run.counts("connections").merged++;
          report.merges.push({
            entity: "connections",
            sourceId: sid,
            into: existing.id,
            reason: "a connection with this name exists",
          });
          return run.remember(tx, "connection", [{ sourceId: sid, targetId: existing.id, merged: true }]);
        }
        const [hasDefault] = await q(tx, "select 1 from whatsapps where is_default");
        const [created] = await q<{ id: number }>(
          tx,
          `insert into whatsapps (name, provider, status, is_default, greeting_message, farewell_message, rating_message)
           values ($1, 'baileys', 'DISCONNECTED', $2, $3, $4, $5) returning id`,
          [name, bool(row.isDefault) && !hasDefault, str(row.greetingMessage), str(row.farewellMessage), str(row.ratingMessage)],
        );
        run.counts("connections").imported++;
        const id = (created as { id: number }).id;
        if (cloud && row.phone_number_id) {
          report.adjustments.push({
            entity: "connections",
            sourceId: sid,
            note: `a Cloud API number (phone number id ${str(row.phone_number_id)}): imported as a QR connection; enter its Cloud API details again (tokens are never copied)`,
          });
        } else if (adopt) {
          const found = cannotAdopt ?? (await readSession(run, row));
          if (typeof found === "string") {
            report.adjustments.push({ entity: "connections", sourceId: sid, note: `session not adopted: ${found}` });
          } else {
            await adoptSession(tx, id, found);
            report.adjustments.push({
              entity: "connections",
              sourceId: sid,
              note: `linked session adopted (${found.creds.me?.id}, ${found.count} keys): no new QR; it connects when Zapdesk starts (or Connections → Start)`,
            });
          }
        } else {
          report.adjustments.push({
            entity: "connections",
            sourceId: sid,
            note: "link the phone again (QR or pairing code)",
          });
        }
        await run.remember(tx, "connection", [{ sourceId: sid, targetId: id, merged: false }]);
      }),
  );
  await importLinks(run, {
    entity: "connectionQueues",
    table: "WhatsappQueues",
    left: { column: "whatsappId", entity: "connection" },
    right: { column: "queueId", entity: "queue" },
    target: "whatsapp_queues",
    targetLeft: "whatsapp_id",
    targetRight: "queue_id",
    parentTable: "Whatsapps",
  });
}
