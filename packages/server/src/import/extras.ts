import { NEW_TICKET_DELAYS } from "@zapdesk/core";
import { q, type Run } from "./context.js";
import { date, int, str } from "./convert.js";

/** Satisfaction ratings (SaaS line `UserRatings`, 1 to 5) on the conversation rated. */
export async function importRatings(run: Run) {
  if (run.has("UserRatings", "rate")) {
    await run.scan(
      "ratings",
      "UserRatings",
      `${run.keySelect("UserRatings", ["id"])}, "id", "ticketId", "rate", "createdAt"`,
      ["id"],
      run.byCompany("UserRatings"),
      (rows) =>
        run.rowByRow("ratings", rows, async (tx, row) => {
          const sid = str(row.id);
          if ((await run.mapped(tx, "rating", [sid])).size) return void run.counts("ratings").already++;
          const rate = int(row.rate);
          if (rate === null || !Number.isInteger(rate) || rate < 1 || rate > 5)
            return run.skip("ratings", sid, `the rate ${str(row.rate)} is not 1 to 5`);
          let ticket = (await run.mapped(tx, "ticket", [str(row.ticketId)])).get(str(row.ticketId));
          if (ticket === undefined) return run.skip("ratings", sid, "its ticket was not imported");
          const ratedAt = date(row.createdAt) ?? new Date();
          if (run.splitSessions) {
            // The session the answer came in: the last one started before it.
            const sessions = await run.source.query(
              `select "id", "startedAt", "createdAt" from "TicketTraking" where "ticketId" = ? order by "id"`,
              [Number(row.ticketId)],
            );
            const before = sessions.filter((x) => (date(x.startedAt) ?? date(x.createdAt) ?? new Date(0)) <= ratedAt).at(-1);
            if (before) ticket = (await run.mapped(tx, "session", [str(before.id)])).get(str(before.id)) ?? ticket;
          }
          await q(tx, "update tickets set rating = $1, rated_at = $2 where id = $3 and rating is null", [rate, ratedAt, ticket]);
          run.counts("ratings").imported++;
          await run.remember(tx, "rating", [{ sourceId: sid, targetId: ticket, merged: false }]);
        }),
    );
  }
}

/** Pending schedules still to come become scheduled messages; one past due is reported, never sent now. */
export async function importSchedules(run: Run) {
  if (run.has("Schedules", "sendAt")) {
    const now = new Date();
    await run.scan(
      "schedules",
      "Schedules",
      `${run.keySelect("Schedules", ["id"])}, "id", "body", "sendAt", ${run.col("Schedules", "sentAt")}, ${run.col("Schedules", "status")}, "contactId", ${run.col("Schedules", "ticketId")}, ${run.col("Schedules", "userId")}`,
      ["id"],
      run.byCompany("Schedules"),
      (rows) =>
        run.rowByRow("schedules", rows, async (tx, row) => {
          const sid = str(row.id);
          if ((await run.mapped(tx, "schedule", [sid])).size) return void run.counts("schedules").already++;
          const sendAt = date(row.sendAt);
          const status = str(row.status).toUpperCase();
          if (row.sentAt || ["ENVIADA", "SENT", "ERRO", "ERROR"].includes(status)) {
            return run.skip("schedules", sid, "already sent (or failed) in the old system");
          }
          if (!sendAt || sendAt <= now) {
            return run.skip(
              "schedules",
              sid,
              `was due ${sendAt?.toISOString() ?? "(no date)"} and not sent by the old system: not sent now`,
            );
          }
          const contact = (await run.mapped(tx, "contact", [str(row.contactId)])).get(str(row.contactId));
          if (contact === undefined) return run.skip("schedules", sid, "its contact was not imported");
          const ticket =
            row.ticketId === null ? undefined : (await run.mapped(tx, "ticket", [str(row.ticketId)])).get(str(row.ticketId));
          const user = row.userId === null ? undefined : (await run.mapped(tx, "user", [str(row.userId)])).get(str(row.userId));
          const [created] = await q<{ id: number }>(
            tx,
            `insert into scheduled_messages (ticket_id, contact_id, whatsapp_id, user_id, body, send_at)
             values ($1, $2, (select whatsapp_id from tickets where id = $1), $3, $4, $5) returning id`,
            [ticket ?? null, contact, user ?? null, str(row.body), sendAt],
          );
          run.counts("schedules").imported++;
          await run.remember(tx, "schedule", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
        }),
    );
  }
}

/** Private notes (Ticketz/SaaS `TicketNotes`) on their conversation, by their author. */
export async function importNotes(run: Run) {
  if (run.has("TicketNotes")) {
    await run.scan(
      "notes",
      "TicketNotes",
      `${run.keySelect("TicketNotes", ["id"])}, "id", "note", "userId", "ticketId", "createdAt", "updatedAt"`,
      ["id"],
      run.multi ? `"ticketId" in (select "id" from "Tickets" where "companyId" = ${run.company})` : "1=1",
      (rows) =>
        run.rowByRow("notes", rows, async (tx, row) => {
          const sid = str(row.id);
          if ((await run.mapped(tx, "note", [sid])).size) return void run.counts("notes").already++;
          const ticket = (await run.mapped(tx, "ticket", [str(row.ticketId)])).get(str(row.ticketId));
          if (ticket === undefined) return run.skip("notes", sid, "its ticket was not imported");
          const user = row.userId === null ? undefined : (await run.mapped(tx, "user", [str(row.userId)])).get(str(row.userId));
          const [created] = await q<{ id: number }>(
            tx,
            `insert into messages (ticket_id, contact_id, user_id, body, from_me, read, ack, is_note, created_at, updated_at)
             select id, contact_id, $2, $3, true, true, 0, true, coalesce($4, now()), coalesce($5, now()) from tickets where id = $1 returning id`,
            [ticket, user ?? null, str(row.note), date(row.createdAt), date(row.updatedAt)],
          );
          run.counts("notes").imported++;
          await run.remember(tx, "note", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
        }),
    );
  }
}

/** Settings that mean the same here (never secrets: API tokens, payment gateways, ERPs). */
export async function importSettings(run: Run) {
  if (!run.has("Settings", "key")) return;
  const SAME: Record<string, string> = {
    userCreation: "userCreation",
    allowSignup: "userCreation",
    call: "call",
    CheckMsgIsGroup: "CheckMsgIsGroup",
    timeCreateNewTicket: "timeCreateNewTicket",
  };
  const where = run.multi && run.has("Settings", "companyId") ? `"companyId" = ${run.company}` : "1=1";
  const rows = await run.source.query(`select "key", "value" from "Settings" where ${where} order by "key"`);
  const wanted = rows.filter((r) => SAME[str(r.key)]);
  run.counts("settings").source += wanted.length;
  await run.inBatch(async (tx) => {
    for (const row of wanted) {
      const key = SAME[str(row.key)] as string;
      const value = str(row.value).trim();
      const valid =
        key === "timeCreateNewTicket"
          ? (NEW_TICKET_DELAYS as readonly number[]).includes(Number(value))
          : value === "enabled" || value === "disabled";
      if (!valid) {
        run.skip("settings", str(row.key), `the value "${value}" has no meaning here`);
        continue;
      }
      const [current] = await q<{ value: string }>(tx, "select value from settings where key = $1", [key]);
      if (current?.value === value) {
        run.counts("settings").already++;
        continue;
      }
      await q(
        tx,
        "insert into settings (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value, updated_at = now()",
        [key, value],
      );
      run.counts("settings").imported++;
      run.report.adjustments.push({
        entity: "settings",
        sourceId: str(row.key),
        note: `${key} set to ${value}${current ? ` (was ${current.value})` : ""}`,
      });
    }
  });
}
