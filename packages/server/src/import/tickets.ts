import { type Pair, q, type Run } from "./context.js";
import { bool, date, int, str } from "./convert.js";
import type { Row } from "./source.js";

/**
 * Tickets with status, queue, assignee and real timestamps, at most one active per contact and
 * connection (a later one is imported closed, reported). SaaS baseline: one conversation per
 * TicketTraking session.
 */
export async function importTickets(run: Run) {
  await run.scan(
    "tickets",
    "Tickets",
    `${run.keySelect("Tickets", ["id"])}, "id", "status", "contactId", "userId", ${run.col("Tickets", "whatsappId")}, ${run.col("Tickets", "queueId")}, ${run.col("Tickets", "isGroup")}, ${run.col("Tickets", "unreadMessages")}, ${run.col("Tickets", "lastMessage")}, "createdAt", "updatedAt"`,
    ["id"],
    run.byCompany("Tickets"),
    async (rows) => {
      // Whole batches in one statement; the row-by-row path for SaaS sessions and for a batch that failed.
      if (!run.splitSessions && (await ticketBatch(run, rows))) return;
      await run.rowByRow("tickets", rows, async (tx, row) => {
        const sid = str(row.id);
        if ((await run.mapped(tx, "ticket", [sid])).size) return void run.counts("tickets").already++;
        const contact = (await run.mapped(tx, "contact", [str(row.contactId)])).get(str(row.contactId));
        if (contact === undefined) return run.skip("tickets", sid, `its contact ${str(row.contactId)} was not imported`);
        const lookup = async (entity: string, id: unknown) =>
          id === null || id === undefined ? null : ((await run.mapped(tx, entity, [str(id)])).get(str(id)) ?? null);
        const whatsapp = await lookup("connection", row.whatsappId);
        let status = ticketStatus(run, row);
        if (status !== "closed") {
          const [active] = await q(
            tx,
            "select 1 from tickets where contact_id = $1 and whatsapp_id is not distinct from $2 and status in ('pending', 'open')",
            [contact, whatsapp],
          );
          if (active) {
            run.report.adjustments.push({
              entity: "tickets",
              sourceId: sid,
              note: "closed: the contact already has an active ticket on this connection (twins merged, or a ticket opened here)",
            });
            status = "closed";
          }
        }
        const insert = async (values: { status: string; user: number | null; createdAt: Date | null; updatedAt: Date }) => {
          const [created] = await q<{ id: number }>(
            tx,
            // A closed ticket's last close (closing_at, by its agent) as a native close records it (0026):
            // the closing report and the tickets export read it.
            `insert into tickets (status, unread_messages, last_message, is_group, user_id, queue_id, contact_id, whatsapp_id, created_at, updated_at, closed_at, closing_at, closing_user_id)
             values ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9, now()), $10, $11, $11, case when $11::timestamptz is null then null else $5::int end) returning id`,
            [
              values.status,
              values.status === "closed" ? 0 : (int(row.unreadMessages) ?? 0),
              str(row.lastMessage),
              bool(row.isGroup),
              values.user,
              await lookup("queue", row.queueId),
              contact,
              whatsapp,
              values.createdAt,
              values.updatedAt,
              values.status === "closed" ? values.updatedAt : null,
            ],
          );
          return (created as { id: number }).id;
        };
        const updated = date(row.updatedAt) ?? new Date();
        const user = await lookup("user", row.userId);
        // SaaS baseline: one ticket row is reused for every service session of a contact and
        // connection; each TicketTraking row is a session, so each becomes a conversation here.
        const sessions = run.splitSessions
          ? await run.source.query(
              `select "id", "userId", "startedAt", "finishedAt", "createdAt" from "TicketTraking" where "ticketId" = ? order by "id"`,
              [Number(row.id)],
            )
          : [];
        let last: number;
        if (sessions.length > 1) {
          const pairs: Pair[] = [];
          for (const [i, session] of sessions.entries()) {
            const final = i === sessions.length - 1;
            const next = sessions[i + 1];
            const start = date(session.startedAt) ?? date(session.createdAt);
            const end = final ? updated : (date(session.finishedAt) ?? date(next?.startedAt) ?? date(next?.createdAt) ?? updated);
            const id = await insert({
              status: final ? status : "closed",
              user: (await lookup("user", session.userId)) ?? user,
              createdAt: start,
              updatedAt: end,
            });
            pairs.push({ sourceId: str(session.id), targetId: id, merged: false });
          }
          await run.remember(tx, "session", pairs);
          last = (pairs.at(-1) as { targetId: number }).targetId;
          run.report.adjustments.push({
            entity: "tickets",
            sourceId: sid,
            note: `one ticket row reused for ${sessions.length} service sessions (TicketTraking): ${sessions.length} conversations`,
          });
        } else {
          last = await insert({ status, user, createdAt: date(row.createdAt), updatedAt: updated });
        }
        run.counts("tickets").imported++;
        await run.remember(tx, "ticket", [{ sourceId: sid, targetId: last, merged: false }]);
      });
    },
  );
}

/** Normalise a source status to ours ("chatbot" waits as pending; anything else unknown is closed, reported). */
function ticketStatus(run: Run, row: Row): string {
  let status = str(row.status);
  if (status === "chatbot") status = "pending";
  if (!["pending", "open", "closed"].includes(status)) {
    run.report.adjustments.push({
      entity: "tickets",
      sourceId: str(row.id),
      note: `status ${status || "(none)"} imported as closed`,
    });
    status = "closed";
  }
  return status;
}

/** A batch of tickets in one insert; false (nothing kept) when it failed, for the row-by-row path to take over. */
async function ticketBatch(run: Run, rows: Row[]): Promise<boolean> {
  return run.attempt("tickets", () =>
    run.inBatch(async (tx) => {
      const done = await run.mapped(
        tx,
        "ticket",
        rows.map((r) => str(r.id)),
      );
      const fresh = rows.filter((r) => !done.has(str(r.id)));
      run.counts("tickets").already += rows.length - fresh.length;
      if (!fresh.length) return;
      const ids = (column: string) => [...new Set(fresh.map((r) => str(r[column])).filter(Boolean))];
      const contactsM = await run.mapped(tx, "contact", ids("contactId"));
      const usersM = await run.mapped(tx, "user", ids("userId"));
      const queuesM = await run.mapped(tx, "queue", ids("queueId"));
      const connectionsM = await run.mapped(tx, "connection", ids("whatsappId"));
      const active = new Set(
        (
          await q<{ contact_id: number; whatsapp_id: number | null }>(
            tx,
            "select contact_id, whatsapp_id from tickets where status in ('pending', 'open') and contact_id = any($1::int[])",
            [[...contactsM.values()]],
          )
        ).map((r) => `${r.contact_id}|${r.whatsapp_id ?? ""}`),
      );
      const values: unknown[][] = [];
      const order: string[] = [];
      for (const row of fresh) {
        const sid = str(row.id);
        const contact = contactsM.get(str(row.contactId));
        if (contact === undefined) {
          run.skip("tickets", sid, `its contact ${str(row.contactId)} was not imported`);
          continue;
        }
        const whatsapp = connectionsM.get(str(row.whatsappId)) ?? null;
        let status = ticketStatus(run, row);
        if (status !== "closed") {
          const key = `${contact}|${whatsapp ?? ""}`;
          if (active.has(key)) {
            run.report.adjustments.push({
              entity: "tickets",
              sourceId: sid,
              note: "closed: the contact already has an active ticket on this connection (twins merged, or a ticket opened here)",
            });
            status = "closed";
          } else active.add(key);
        }
        const updated = date(row.updatedAt) ?? new Date();
        values.push([
          status,
          status === "closed" ? 0 : (int(row.unreadMessages) ?? 0),
          str(row.lastMessage),
          bool(row.isGroup),
          usersM.get(str(row.userId)) ?? null,
          queuesM.get(str(row.queueId)) ?? null,
          contact,
          whatsapp,
          date(row.createdAt) ?? updated,
          updated,
          status === "closed" ? updated : null,
        ]);
        order.push(sid);
      }
      if (!values.length) return;
      const newIds = await q<{ id: string }>(
        tx,
        "select nextval(pg_get_serial_sequence('tickets', 'id')) as id from generate_series(1, $1::int)",
        [values.length],
      );
      values.forEach((v, i) => {
        v.unshift(Number((newIds[i] as { id: string }).id));
      });
      const column = (i: number) => values.map((v) => v[i]);
      await q(
        tx,
        `insert into tickets (id, status, unread_messages, last_message, is_group, user_id, queue_id, contact_id, whatsapp_id, created_at, updated_at, closed_at, closing_at, closing_user_id)
           select *, closed_at, case when closed_at is null then null else user_id end
           from unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::boolean[], $6::int[], $7::int[], $8::int[], $9::int[], $10::timestamptz[], $11::timestamptz[], $12::timestamptz[])
             as t(id, status, unread_messages, last_message, is_group, user_id, queue_id, contact_id, whatsapp_id, created_at, updated_at, closed_at)`,
        Array.from({ length: 12 }, (_, i) => column(i)),
      );
      run.counts("tickets").imported += values.length;
      await run.remember(
        tx,
        "ticket",
        values.map((v, i) => ({ sourceId: order[i] as string, targetId: v[0] as number, merged: false })),
      );
    }),
  );
}
