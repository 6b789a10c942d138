/**
 * `npx tsx bench/inbound-store-cost.ts`: what a new customer's lone message (the inbound batch's
 * `storeBatch`, its whole transaction) costs Node and the database, by the size of the channel's
 * payload it carries, and how much of the database's share is the triggers on the tables it writes
 * (issue 24 item 1). A fresh PostgreSQL database (BENCH_PG_URL) gets the bench's data set at
 * BENCH_SCALE (default 0.3); on one connection each case stores BENCH_STORE_RUNS messages (default
 * 3000), each from a new number, alternated over BENCH_STORE_ROUNDS rounds (default 3);
 * BENCH_STORE_CASES picks cases by number ("1,2"). Reported per message: Node's CPU, and the
 * backend's user and system CPU (/proc/<pid>/stat, 10 ms ticks).
 *
 * - A text message with the simulator's payload (a few bytes), and an image with a Baileys-shaped
 *   payload whose thumbnail is 6 KB of base64 (what a WhatsApp photo carries).
 * - Diagnostics: the text message with a group of triggers disabled for the case's loop (ALTER TABLE
 *   … DISABLE TRIGGER, enabled again after): what each group costs, not a configuration.
 */
import { sql } from "drizzle-orm";
import { systemClock } from "../packages/server/src/lib/clock.js";
import { storeBatch } from "../packages/server/src/modules/messages/inbound-batch.js";
import { withOneConnection } from "./one-connection.js";

const scale = Number(process.env.BENCH_SCALE ?? "0.3");
const runs = Number(process.env.BENCH_STORE_RUNS ?? "3000");
const rounds = Number(process.env.BENCH_STORE_ROUNDS ?? "3");
const picked = process.env.BENCH_STORE_CASES?.split(",").map(Number);

type Payload = (wid: string, chat: string) => unknown;
const simulator: Payload = (wid) => ({ simulator: { wid } });
const baileysImage: Payload = (wid, chat) => ({
  key: { remoteJid: `${chat}@s.whatsapp.net`, fromMe: false, id: wid },
  messageTimestamp: Math.floor(Date.now() / 1000),
  pushName: "Cliente",
  message: {
    imageMessage: {
      url: "https://mmg.whatsapp.net/v/t62.7118-24/00000000_000000000000000_0000000000000000000_n.enc",
      mimetype: "image/jpeg",
      fileSha256: "n0yRkQ3x1ezJ3Wl0Ww8Y0v0S6l1Yk3m8d2c7f5a4b3c=",
      fileLength: "183942",
      height: 1280,
      width: 960,
      mediaKey: "Q2Vd1m8x5m1mX3y0d9b8a7c6e5f4g3h2i1j0k9l8m7n=",
      fileEncSha256: "Zx9y8w7v6u5t4s3r2q1p0o9n8m7l6k5j4i3h2g1f0e=",
      directPath: "/v/t62.7118-24/00000000_000000000000000_0000000000000000000_n.enc",
      mediaKeyTimestamp: "1764900000",
      jpegThumbnail: "/9j/".padEnd(6000, "A"),
    },
    messageContextInfo: { deviceListMetadataVersion: 2, messageSecret: "c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=" },
  },
});

// The triggers a lone message fires, by table, grouped by what they serve.
const groups: [string, [table: string, trigger: string][]][] = [
  [
    "  the text message without the webhooks' triggers",
    [
      ["contacts", "webhooks_contact_created"],
      ["tickets", "webhooks_ticket_created"],
      ["tickets", "webhooks_ticket_updated"],
      ["messages", "webhooks_message_created"],
    ],
  ],
  [
    "  the text message without the rules' triggers",
    [
      ["tickets", "rules_ticket_created"],
      ["tickets", "rules_ticket_updated"],
      ["messages", "rules_message_created"],
    ],
  ],
  [
    "  the text message without the metrics' triggers",
    [
      ["tickets", "tickets_metrics_stamp_insert"],
      ["tickets", "tickets_metrics_stamp_update"],
      ["tickets", "tickets_waiting_since"],
      ["messages", "tickets_first_response"],
    ],
  ],
];

async function main() {
  await withOneConnection("zapdesk_store_cost", scale, async ({ database, client, perRun }) => {
    const [line] = (
      (await database.db.execute(
        sql`insert into whatsapps (name, provider) values ('Store cost', 'simulator') returning id`,
      )) as unknown as { rows: { id: number }[] }
    ).rows;
    let sent = 0;
    const lone = (type: string, payload: Payload) => async () => {
      sent += 1;
      const [wid, chat] = [`sc-${sent}`, `5598${String(1e8 + sent)}`];
      const item = {
        wid,
        chat,
        isGroup: false,
        fromMe: false,
        timestamp: new Date(),
        type,
        body: `mensagem ${sent}`,
        raw: payload(wid, chat),
      };
      const [stored] = await storeBatch(database.db, systemClock, line.id, [{ ...item, sender: { number: chat } }], 7200);
      if (!stored) throw new Error("the message was not stored");
    };
    const toggle = async (triggers: [string, string][], on: boolean) => {
      for (const [table, trigger] of triggers) {
        await client.query(`alter table "${table}" ${on ? "enable" : "disable"} trigger "${trigger}"`);
      }
    };
    const cases: [string, () => Promise<void>, [string, string][]][] = [
      ["a text message, the simulator's payload", lone("chat", simulator), []],
      ["an image, a Baileys payload with a 6 KB thumbnail", lone("image", baileysImage), []],
      ...groups.map(([label, triggers]): [string, () => Promise<void>, [string, string][]] => [
        label,
        lone("chat", simulator),
        triggers,
      ]),
    ];
    const chosen = picked ? cases.filter((_, i) => picked.includes(i + 1)) : cases;
    const results = new Map<string, string[]>();
    for (let round = 1; round <= rounds; round++) {
      for (const [label, run, triggers] of chosen) {
        await toggle(triggers, false);
        try {
          const { node, dbUser, dbSystem } = await perRun(run, runs, 20);
          const f = (n: number) => n.toFixed(3);
          results.set(label, [...(results.get(label) ?? []), `${f(node)} · ${f(dbUser)} + ${f(dbSystem)}`]);
        } finally {
          await toggle(triggers, true);
        }
      }
    }
    console.log(
      `scale ${scale}, ${runs} new customers' lone messages a case, ${rounds} rounds; CPU ms a message, node · database user + system`,
    );
    for (const [label, list] of results) console.log(`| ${label} | ${list.join(", ")} |`);
  });
}

await main();
