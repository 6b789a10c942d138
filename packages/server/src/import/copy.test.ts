import { describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/harness.js";
import { fillBadRows, OVERSIZED_BODY } from "../../test/import-fixtures/bad-rows.js";
import { pgSource } from "../../test/import-fixtures/sources.js";
import { count } from "../../test/import-fixtures/target.js";
import type { Db } from "../db/client.js";
import { q } from "./context.js";
import { copyClient, insertMessages } from "./copy.js";
import { runImport } from "./importer.js";
import { openSource } from "./source.js";

const at = (minute: number) => new Date(Date.UTC(2025, 0, 10, 12, minute));
/** A row in MESSAGE_COLUMNS' order. */
const message = (id: number, wid: string, body: string, fromMe: boolean, minute: number) => [
  id,
  wid,
  1,
  1,
  1,
  null,
  body,
  fromMe,
  true,
  fromMe ? 3 : 0,
  "chat",
  null,
  null,
  null,
  false,
  false,
  false,
  at(minute),
  at(minute),
];

describe("messages written with COPY", { timeout: 240_000 }, () => {
  it("store what the multi-row insert stores: conflicts skipped, search column, first response", async () => {
    const target = await openTestDatabase();
    try {
      await target.exec(`insert into whatsapps (id, name) values (1, 'Principal');
        insert into contacts (id, name, number) values (1, 'Ana', '5521990000001');
        insert into tickets (id, status, contact_id, whatsapp_id) values (1, 'closed', 1, 1);
        insert into messages (id, wid, whatsapp_id, ticket_id, body) values (900, 'W0', 1, 1, 'já estava')`);
      const created = await target.db.transaction(async (tx) => {
        const client = copyClient(tx as unknown as Db);
        // The embedded PostgreSQL's transactions hand out their connection: batches take COPY.
        expect(client).toBeDefined();
        return insertMessages(
          tx as unknown as Db,
          [
            message(1000, "W1", "Olá,\tpreciso de ajuda\ncom o pedido \\ 42", false, 1),
            message(1001, "W0", "a mesma mensagem do WhatsApp", false, 2),
            message(1002, "W2", "Bom dia! Já vejo", true, 5),
            message(1003, "W3", "Segue o código", true, 7),
          ],
          client,
        );
      });
      expect([...created].sort()).toEqual([1000, 1002, 1003]);
      const rows = await target.query<{ id: string; body: string }>("select id, body from messages order by id");
      expect(rows.map((r) => [Number(r.id), r.body])).toEqual([
        [900, "já estava"],
        [1000, "Olá,\tpreciso de ajuda\ncom o pedido \\ 42"],
        [1002, "Bom dia! Já vejo"],
        [1003, "Segue o código"],
      ]);
      expect(await count(target, "select count(*) as n from messages where search @@ to_tsquery('simple', 'pedido')")).toBe(1);
      const [ticket] = await target.query<{ first_response_at: Date }>("select first_response_at from tickets where id = 1");
      expect(ticket?.first_response_at.toISOString()).toBe(at(5).toISOString());

      // A value COPY refuses fails the batch, and the connection is fine for the next one.
      await expect(
        target.db.transaction(async (tx) => {
          await insertMessages(
            tx as unknown as Db,
            [message(1004, "W4", "nul \u0000 byte", false, 8)],
            copyClient(tx as unknown as Db),
          );
        }),
      ).rejects.toThrow(/0x00/);
      await target.db.transaction(async (tx) => {
        await insertMessages(tx as unknown as Db, [message(1005, "W5", "depois", false, 9)], copyClient(tx as unknown as Db));
        expect(await q(tx as unknown as Db, "select 1 from zapdesk_import_messages")).toEqual([]);
      });
      expect(await count(target, "select count(*) as n from messages")).toBe(5);
    } finally {
      await target.drop();
    }
  });

  it("killed half-way, resume without duplicates and report the bad row without losing its batch", async () => {
    const src = await pgSource("ticketz.pg.sql");
    const target = await openTestDatabase();
    const source = await openSource(src.url);
    try {
      const x = await fillBadRows(src);
      let batches = 0;
      await expect(
        runImport({
          source,
          flavour: "ticketz",
          database: target,
          batchSize: 50,
          afterBatch: (entity) => {
            if (entity === "messages" && ++batches === 2) throw new Error("killed");
          },
        }),
      ).rejects.toThrow("killed");
      const partial = await count(target, "select count(*) as n from messages");
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(x.goodMessages);

      const report = await runImport({ source, flavour: "ticketz", database: target, batchSize: 50 });
      expect(report.verification.complete).toBe(true);
      expect(report.entities.messages).toMatchObject({ imported: x.goodMessages + 1 - partial, already: partial, skipped: 3 });
      expect(report.skips.find((s) => s.sourceId === "5:OK5X4B")?.reason).toMatch(/^failed: string is too long for tsvector/);
      expect(await count(target, "select count(*) as n from messages where body like 'mensagem %'")).toBe(x.goodMessages);
      expect(await count(target, "select count(*) as n from messages where length(body) = $1", [OVERSIZED_BODY.length])).toBe(0);
      // Each message once, each remembered once.
      expect(await count(target, "select count(distinct wid) as n from messages")).toBe(x.goodMessages + 1);
      expect(await count(target, "select count(*) as n from import_map where entity = 'message'")).toBe(x.goodMessages + 1);
    } finally {
      await source.close();
      await src.drop();
      await target.drop();
    }
  });
});
