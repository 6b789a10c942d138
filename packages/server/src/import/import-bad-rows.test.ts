import { describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/harness.js";
import { fillBadRows, OVERSIZED_BODY } from "../../test/import-fixtures/bad-rows.js";
import { pgSource } from "../../test/import-fixtures/sources.js";
import { count } from "../../test/import-fixtures/target.js";
import { runImport } from "./importer.js";
import { openSource } from "./source.js";

describe("a bad row in the source", { timeout: 240_000 }, () => {
  it("is reported with its reason and never costs the rows beside it", async () => {
    const src = await pgSource("ticketz.pg.sql");
    const target = await openTestDatabase();
    const source = await openSource(src.url);
    try {
      const x = await fillBadRows(src);
      // Small batches: the oversized message shares its batch with 49 good ones, which fails whole.
      const report = await runImport({ source, flavour: "ticketz", database: target, batchSize: 50 });
      const e = report.entities;
      const reason = (entity: string, sourceId: string) =>
        report.skips.find((s) => s.entity === entity && s.sourceId === sourceId)?.reason;

      expect(e.contacts).toMatchObject({ source: x.contacts, imported: x.contacts - 1, skipped: 1 });
      expect(reason("contacts", "21")).toBe("no number");
      expect(e.tickets).toMatchObject({ source: x.tickets, imported: x.tickets - 1, skipped: 1 });
      expect(reason("tickets", "30")).toBe("its contact 99 was not imported");

      // Every good message is in, the three bad ones are skipped, each with its reason.
      expect(e.messages).toMatchObject({ source: x.goodMessages + 4, imported: x.goodMessages + 1, skipped: 3 });
      expect(await count(target, "select count(*) as n from messages where body like 'mensagem %'")).toBe(x.goodMessages);
      expect(reason("messages", "777:ORPHAN1")).toBe("its ticket 777 was not imported");
      expect(reason("messages", "30:LOST30")).toBe("its ticket 30 was not imported");
      expect(reason("messages", "5:OK5X4B")).toMatch(/^failed: string is too long for tsvector/);
      expect(await count(target, "select count(*) as n from messages where length(body) = $1", [OVERSIZED_BODY.length])).toBe(0);
      // The conversation the oversized message was in has all its other messages, in order.
      const five = await target.query<{ body: string }>(
        `select m.body from messages m join tickets t on t.id = m.ticket_id join contacts c on c.id = t.contact_id
         where c.number = '5521990000005' order by m.created_at, m.id`,
      );
      expect(five.map((m) => m.body)).toEqual(Array.from({ length: 10 }, (_, k) => `mensagem ${k} da conversa 5`));

      // A message whose dates cannot be read is kept, dated at its conversation's start, and reported.
      const [undated] = await target.query<{ created_at: Date; started: Date }>(
        "select m.created_at, t.created_at as started from messages m join tickets t on t.id = m.ticket_id where m.body = 'sem data'",
      );
      expect(undated?.created_at.toISOString()).toBe(undated?.started.toISOString());
      expect(report.adjustments.find((a) => a.sourceId === "7:NODATE")?.note).toMatch(/date .* cannot be read/);

      // Everything is accounted for, so the import is complete; a second run adds nothing.
      expect(report.verification.complete).toBe(true);
      const again = await runImport({ source, flavour: "ticketz", database: target, batchSize: 50 });
      expect(again.entities.messages).toMatchObject({ imported: 0, already: x.goodMessages + 1, skipped: 3 });
      expect(await count(target, "select count(*) as n from messages")).toBe(x.goodMessages + 1);
    } finally {
      await source.close();
      await src.drop();
      await target.drop();
    }
  });
});
