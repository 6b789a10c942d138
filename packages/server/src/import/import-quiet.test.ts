import { describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/harness.js";
import { fillSaas } from "../../test/import-fixtures/data.js";
import { pgSource } from "../../test/import-fixtures/sources.js";
import { count } from "../../test/import-fixtures/target.js";
import { runImport } from "./importer.js";
import { openSource } from "./source.js";

// Issues 21 and 23: what an import writes is history. An enabled rule must not fire on years of old
// messages and tickets (an auto-reply would write to customers about them), and a webhook must not
// receive each of them; the same triggers still hear what happens after the import.
describe("an import on an install with rules and webhooks", { timeout: 240_000 }, () => {
  it("queues no rule event and no webhook delivery for what it imports, and the live triggers still work", async () => {
    const src = await pgSource("saas.pg.sql");
    const target = await openTestDatabase();
    const source = await openSource(src.url);
    try {
      const x = await fillSaas(src);
      await target.exec(`
        insert into automation_rules (name, enabled, trigger, actions)
          values ('Every message', true, 'messageReceived', '[{"type":"addNote","body":"seen"}]'),
                 ('Every ticket', true, 'ticketCreated', '[{"type":"addNote","body":"new"}]'),
                 ('Every change', true, 'statusChanged', '[{"type":"addNote","body":"moved"}]');
        insert into webhooks (url, events, secret, secret_hint)
          values ('https://hooks.example.com/in', '{message.created,contact.created,ticket.created,ticket.updated,ticket.closed}', 'sealed', 'abcd');`);

      const report = await runImport({ source, flavour: "saas", database: target, batchSize: 40 });
      expect(report.verification.complete).toBe(true);
      expect(report.entities.messages.imported).toBe(x.messages);
      expect(await count(target, "select count(*) as n from rule_events")).toBe(0);
      expect(await count(target, "select count(*) as n from webhook_deliveries")).toBe(0);

      // After the import, a change made as usual is heard by both.
      const [ticket] = await target.query<{ id: number; contact_id: number }>(
        "select id, contact_id from tickets order by id limit 1",
      );
      await target.exec(
        `insert into messages (wid, ticket_id, contact_id, body, from_me) values ('live-1', ${ticket!.id}, ${ticket!.contact_id}, 'oi de novo', false)`,
      );
      expect(await count(target, "select count(*) as n from rule_events where kind = 'messageReceived'")).toBe(1);
      expect(await count(target, "select count(*) as n from webhook_deliveries where event = 'message.created'")).toBe(1);
    } finally {
      await source.close();
      await src.drop();
      await target.drop();
    }
  });
});
