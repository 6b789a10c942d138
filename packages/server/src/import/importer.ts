import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, isAbsolute, join, normalize } from "node:path";
import { MEDIA_STATE, NEW_TICKET_DELAYS } from "@zapdesk/core";
import { type SQL, sql } from "drizzle-orm";
import { twinOf } from "../channels/chat-address.js";
import type { Database, Db } from "../db/client.js";
import type { MediaStorage } from "../media/storage.js";
import { type Flavour, MULTI_COMPANY } from "./flavours.js";
import type { Row, Source } from "./source.js";

/** The marker a message keeps when its file was not in the old system's media folder. */
export const IMPORT_MEDIA_MISSING = MEDIA_STATE.notInOldSystem;

export const ENTITIES = [
  "queues",
  "users",
  "userQueues",
  "connections",
  "connectionQueues",
  "quickAnswers",
  "tags",
  "contacts",
  "contactFields",
  "contactTags",
  "tickets",
  "ticketTags",
  "messages",
  "notes",
  "ratings",
  "schedules",
  "settings",
] as const;
export type Entity = (typeof ENTITIES)[number];

export interface EntityCounts {
  /** Rows in the source (for this company). */
  source: number;
  /** Created by this run. */
  imported: number;
  /** Folded into a row that already existed (or another source row of the same person). */
  merged: number;
  /** Not imported (each has a reason in `skips`). */
  skipped: number;
  /** Already imported by an earlier run (found in import_map). */
  already: number;
}

export interface ImportReport {
  flavour: Flavour;
  source: string;
  company?: number;
  dryRun: boolean;
  startedAt: string;
  finishedAt?: string;
  entities: Record<Entity, EntityCounts>;
  skips: { entity: Entity; sourceId: string; reason: string }[];
  merges: { entity: Entity; sourceId: string; into: number; reason: string }[];
  /** Rows imported with a change the operator should know about (a ticket closed, a colour changed…). */
  adjustments: { entity: Entity; sourceId: string; note: string }[];
  media: { copied: number; missing: number; remote: number; bytes: number };
  verification: {
    tables: { entity: Entity; source: number; accounted: number; ok: boolean }[];
    sample: { sourceTicket: string; ticket: number; sourceMessages: number; messages: number; ok: boolean }[];
    complete: boolean;
  };
}

export interface Progress {
  entity: Entity;
  done: number;
  total: number;
  perSecond: number;
  etaSeconds: number;
}

export interface ImportOptions {
  source: Source;
  flavour: Flavour;
  database: Database;
  /** Where copied media goes; without it (or in a dry run) files are only looked for. */
  storage?: MediaStorage;
  /** The old backend's public/ (and Ticketz's private/) folders. */
  mediaDirs?: string[];
  company?: number;
  dryRun?: boolean;
  batchSize?: number;
  maxMediaBytes?: number;
  onProgress?: (progress: Progress) => void;
  /** Tests: called after each committed batch (a throw here interrupts the run like a kill). */
  afterBatch?: (entity: Entity, batch: number) => void | Promise<void>;
}

class DryRunRollback extends Error {}

/** Raw SQL with $n placeholders inside a drizzle transaction. */
async function q<T = Row>(tx: Db, text: string, params: unknown[] = []): Promise<T[]> {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [sql.raw(parts[0] ?? "")];
  for (let i = 1; i < parts.length; i += 2) {
    chunks.push(sql`${sql.param(params[Number(parts[i]) - 1])}`);
    chunks.push(sql.raw(parts[i + 1] ?? ""));
  }
  const result = (await tx.execute(sql.join(chunks, sql``))) as unknown as { rows: T[] };
  return result.rows;
}

/** Text as PostgreSQL takes it: a NUL character (which MySQL stores and WhatsApp messages sometimes carry) is dropped. */
const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v).replaceAll("\u0000", ""));
const bool = (v: unknown): boolean => v === true || v === 1 || v === "1" || v === "t" || v === "true";
const int = (v: unknown): number | null => (v === null || v === undefined || v === "" ? null : Number(v));
const date = (v: unknown): Date | null => {
  if (v === null || v === undefined) return null;
  const d = v instanceof Date ? v : new Date(String(v));
  return Number.isNaN(d.getTime()) ? null : d;
};
const digits = (v: string) => v.replace(/\D/g, "");

/** Ticketz/SaaS `dataJson.messageTimestamp` (seconds; a number, a string or a protobuf Long). */
export function originalTimestamp(dataJson: unknown): Date | null {
  if (typeof dataJson !== "string" || !dataJson) return null;
  try {
    const parsed = JSON.parse(dataJson) as { messageTimestamp?: unknown };
    let ts = parsed.messageTimestamp;
    if (ts && typeof ts === "object" && "low" in ts) {
      const long = ts as { low: number; high?: number };
      ts = (long.high ?? 0) * 2 ** 32 + (long.low >>> 0);
    }
    const seconds = Number(ts);
    if (!Number.isFinite(seconds) || seconds <= 0) return null;
    return new Date(seconds * 1000);
  } catch {
    return null;
  }
}

const MEDIA_TYPE: Record<string, string> = {
  chat: "chat",
  conversation: "chat",
  extendedTextMessage: "chat",
  image: "image",
  audio: "audio",
  ptt: "audio",
  video: "video",
  document: "document",
  application: "document",
  location: "location",
  vcard: "vcard",
  contactMessage: "vcard",
  sticker: "sticker",
  call_log: "call",
};

function normaliseColor(color: unknown): string | null {
  const c = str(color).trim().toLowerCase();
  return /^#([0-9a-f]{3}|[0-9a-f]{6})$/.test(c) ? c : null;
}

function freeColor(taken: Set<string>, seed: number): string {
  for (let i = 0; i < 4096; i++) {
    const hue = (seed * 47 + i * 137) % 360;
    const c = hslToHex(hue, 55, 45 + (i % 3) * 8);
    if (!taken.has(c)) return c;
  }
  return "#777777";
}

function hslToHex(h: number, s: number, l: number): string {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(Math.min(k - 3, 9 - k, 1), -1);
    return Math.round(255 * c)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/** Identity of a source for import_map: dialect, database name and company. */
export function sourceKey(source: Source, company?: number): string {
  return `${source.dialect}/${source.database}${company === undefined ? "" : `#${company}`}`;
}

export async function runImport(options: ImportOptions): Promise<ImportReport> {
  const { source, flavour, database } = options;
  const batchSize = options.batchSize ?? 1000;
  const multi = MULTI_COMPANY.has(flavour);
  const tables = await source.columns();
  const company = multi ? await pickCompany(source, options.company) : undefined;
  const key = sourceKey(source, company);
  const report: ImportReport = {
    flavour,
    source: key,
    company,
    dryRun: !!options.dryRun,
    startedAt: new Date().toISOString(),
    entities: Object.fromEntries(
      ENTITIES.map((e) => [e, { source: 0, imported: 0, merged: 0, skipped: 0, already: 0 }]),
    ) as Record<Entity, EntityCounts>,
    skips: [],
    merges: [],
    adjustments: [],
    media: { copied: 0, missing: 0, remote: 0, bytes: 0 },
    verification: { tables: [], sample: [], complete: false },
  };
  const counts = (e: Entity) => report.entities[e];
  const skip = (entity: Entity, sourceId: unknown, reason: string) => {
    counts(entity).skipped++;
    report.skips.push({ entity, sourceId: str(sourceId), reason });
  };

  const has = (table: string, column?: string) => {
    const cols = tables.get(table);
    return !!cols && (column === undefined || cols.has(column));
  };
  /** A column, or NULL under its name when this flavour's table lacks it. */
  const col = (table: string, column: string, alias = column) =>
    has(table, column) ? `"${table}"."${column}" as "${alias}"` : `null as "${alias}"`;
  const byCompany = (table: string) => (multi && has(table, "companyId") ? `"${table}"."companyId" = ${company}` : "1=1");

  // ---- transactions: one per batch; a dry run nests every batch in one transaction rolled back at the end.
  let outer: Db | undefined;
  const inBatch = <T>(fn: (tx: Db) => Promise<T>): Promise<T> =>
    outer ? outer.transaction((tx) => fn(tx as unknown as Db)) : database.db.transaction((tx) => fn(tx as unknown as Db));

  async function mapped(tx: Db, entity: string, ids: string[]): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const rows = await q<{ source_id: string; target_id: string }>(
      tx,
      "select source_id, target_id from import_map where source = $1 and entity = $2 and source_id = any($3::text[])",
      [key, entity, ids],
    );
    return new Map(rows.map((r) => [r.source_id, Number(r.target_id)]));
  }
  async function remember(tx: Db, entity: string, pairs: { sourceId: string; targetId: number; merged: boolean }[]) {
    if (!pairs.length) return;
    await q(
      tx,
      `insert into import_map (source, entity, source_id, target_id, merged)
       select $1, $2, * from unnest($3::text[], $4::bigint[], $5::boolean[]) on conflict do nothing`,
      [key, entity, pairs.map((p) => p.sourceId), pairs.map((p) => p.targetId), pairs.map((p) => p.merged)],
    );
  }

  let batchNo = 0;
  /** Keyset scan of a source table in batches, with progress. */
  async function scan(
    entity: Entity,
    table: string,
    select: string,
    keys: string[],
    where: string,
    handle: (rows: Row[]) => Promise<void>,
  ) {
    const [{ n }] = await source.query<{ n: number | string }>(`select count(*) as "n" from "${table}" where ${where}`);
    const total = Number(n);
    counts(entity).source += total;
    const started = Date.now();
    let done = 0;
    let last: unknown[] | undefined;
    const keyList = keys.map((k) => `"${table}"."${k}"`).join(", ");
    for (;;) {
      const after = last ? ` and (${keyList}) > (${keys.map(() => "?").join(", ")})` : "";
      const rows = await source.query(
        `select ${select} from "${table}" where ${where}${after} order by ${keyList} limit ${batchSize}`,
        last ?? [],
      );
      if (!rows.length) break;
      await handle(rows);
      done += rows.length;
      const lastRow = rows[rows.length - 1] as Row;
      last = keys.map((k) => lastRow[`__k_${k}`]);
      const seconds = Math.max((Date.now() - started) / 1000, 0.001);
      const perSecond = done / seconds;
      options.onProgress?.({
        entity,
        done,
        total,
        perSecond,
        etaSeconds: perSecond > 0 ? Math.max(0, (total - done) / perSecond) : 0,
      });
      await options.afterBatch?.(entity, ++batchNo);
      if (rows.length < batchSize) break;
    }
  }
  const keySelect = (table: string, keys: string[]) => keys.map((k) => `"${table}"."${k}" as "__k_${k}"`).join(", ");

  /**
   * Import rows one by one inside a batch transaction; a row that fails is retried alone in a
   * savepoint after the batch is rolled back, so one bad row never costs the others.
   */
  async function rowByRow(entity: Entity, rows: Row[], one: (tx: Db, row: Row) => Promise<void>) {
    const snapshot = JSON.stringify(counts(entity));
    const lengths = [report.skips.length, report.merges.length, report.adjustments.length];
    try {
      await inBatch(async (tx) => {
        for (const row of rows) await one(tx, row);
      });
    } catch {
      Object.assign(counts(entity), JSON.parse(snapshot));
      report.skips.length = lengths[0] as number;
      report.merges.length = lengths[1] as number;
      report.adjustments.length = lengths[2] as number;
      await inBatch(async (tx) => {
        for (const row of rows) {
          try {
            await tx.transaction((sp) => one(sp as unknown as Db, row));
          } catch (error) {
            skip(entity, row.id ?? row.__k_id, `failed: ${(error as Error).message.split("\n")[0]}`);
          }
        }
      });
    }
  }

  async function pipeline() {
    // ---------------- queues
    const takenColors = new Set(
      (await database.query<{ c: string }>("select lower(color) as c from queues union select lower(color) from tags")).map(
        (r) => r.c,
      ),
    );
    await scan(
      "queues",
      "Queues",
      `${keySelect("Queues", ["id"])}, "id", "name", ${col("Queues", "color")}, ${col("Queues", "greetingMessage")}`,
      ["id"],
      byCompany("Queues"),
      (rows) =>
        rowByRow("queues", rows, async (tx, row) => {
          const sid = str(row.id);
          if ((await mapped(tx, "queue", [sid])).size) return void counts("queues").already++;
          const name = str(row.name).trim() || `Queue ${sid}`;
          const [existing] = await q<{ id: number }>(tx, "select id from queues where lower(name) = lower($1)", [name]);
          if (existing) {
            counts("queues").merged++;
            report.merges.push({ entity: "queues", sourceId: sid, into: existing.id, reason: "a queue with this name exists" });
            return remember(tx, "queue", [{ sourceId: sid, targetId: existing.id, merged: true }]);
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
          counts("queues").imported++;
          await remember(tx, "queue", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
        }),
    );

    // ---------------- users
    await scan(
      "users",
      "Users",
      `${keySelect("Users", ["id"])}, "id", "name", "email", "passwordHash", ${col("Users", "profile")}, ${col("Users", "super")}, ${col("Users", "createdAt")}`,
      ["id"],
      byCompany("Users"),
      (rows) =>
        rowByRow("users", rows, async (tx, row) => {
          const sid = str(row.id);
          if ((await mapped(tx, "user", [sid])).size) return void counts("users").already++;
          const email = str(row.email).trim();
          if (!email) return skip("users", sid, "no email");
          const [existing] = await q<{ id: number }>(tx, "select id from users where lower(email) = lower($1)", [email]);
          if (existing) {
            counts("users").merged++;
            report.merges.push({
              entity: "users",
              sourceId: sid,
              into: existing.id,
              reason: `the email ${email} already has an account here: kept as it is, not overwritten`,
            });
            return remember(tx, "user", [{ sourceId: sid, targetId: existing.id, merged: true }]);
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
          counts("users").imported++;
          await remember(tx, "user", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
        }),
    );
    if (has("QueueOptions")) {
      const where = multi ? `"queueId" in (select "id" from "Queues" where "companyId" = ${company})` : "1=1";
      const [{ n }] = await source.query<{ n: string | number }>(`select count(*) as "n" from "QueueOptions" where ${where}`);
      if (Number(n)) {
        report.adjustments.push({
          entity: "queues",
          sourceId: "QueueOptions",
          note: `${n} chatbot menu options (QueueOptions) are not imported: set up the queue menu again`,
        });
      }
    }
    await links("userQueues", "UserQueues", "userId", "user", "queueId", "queue", "user_queues", "user_id", "queue_id", "Users");

    // ---------------- connections
    if (has("Whatsapps")) {
      const cloud = has("Whatsapps", "phone_number_id");
      await scan(
        "connections",
        "Whatsapps",
        `${keySelect("Whatsapps", ["id"])}, "id", "name", ${col("Whatsapps", "greetingMessage")}, ${col("Whatsapps", "farewellMessage")}, ${col("Whatsapps", "ratingMessage")}, ${col("Whatsapps", "isDefault")}, ${col("Whatsapps", "phone_number_id")}, ${col("Whatsapps", "waba_id")}, ${col("Whatsapps", "channel")}`,
        ["id"],
        byCompany("Whatsapps"),
        (rows) =>
          rowByRow("connections", rows, async (tx, row) => {
            const sid = str(row.id);
            if ((await mapped(tx, "connection", [sid])).size) return void counts("connections").already++;
            const channel = str(row.channel);
            if (channel && channel !== "whatsapp")
              return skip("connections", sid, `a ${channel} channel, which Zapdesk does not run`);
            const name = str(row.name).trim() || `WhatsApp ${sid}`;
            const [existing] = await q<{ id: number }>(tx, "select id from whatsapps where lower(name) = lower($1)", [name]);
            if (existing) {
              counts("connections").merged++;
              report.merges.push({
                entity: "connections",
                sourceId: sid,
                into: existing.id,
                reason: "a connection with this name exists",
              });
              return remember(tx, "connection", [{ sourceId: sid, targetId: existing.id, merged: true }]);
            }
            const [hasDefault] = await q(tx, "select 1 from whatsapps where is_default");
            const [created] = await q<{ id: number }>(
              tx,
              `insert into whatsapps (name, provider, status, is_default, greeting_message, farewell_message, rating_message)
               values ($1, 'baileys', 'DISCONNECTED', $2, $3, $4, $5) returning id`,
              [
                name,
                bool(row.isDefault) && !hasDefault,
                str(row.greetingMessage),
                str(row.farewellMessage),
                str(row.ratingMessage),
              ],
            );
            counts("connections").imported++;
            if (cloud && row.phone_number_id) {
              report.adjustments.push({
                entity: "connections",
                sourceId: sid,
                note: `a Cloud API number (phone number id ${str(row.phone_number_id)}): imported as a QR connection; enter its Cloud API details again (tokens are never copied)`,
              });
            } else {
              report.adjustments.push({
                entity: "connections",
                sourceId: sid,
                note: "link the phone again (QR or pairing code)",
              });
            }
            await remember(tx, "connection", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
          }),
      );
      await links(
        "connectionQueues",
        "WhatsappQueues",
        "whatsappId",
        "connection",
        "queueId",
        "queue",
        "whatsapp_queues",
        "whatsapp_id",
        "queue_id",
        "Whatsapps",
      );
    }

    // ---------------- quick answers
    const qa = has("QuickAnswers")
      ? { table: "QuickAnswers", shortcut: "shortcut" }
      : { table: "QuickMessages", shortcut: "shortcode" };
    if (has(qa.table)) {
      await scan(
        "quickAnswers",
        qa.table,
        `${keySelect(qa.table, ["id"])}, "id", "${qa.shortcut}" as "shortcut", "message", ${col(qa.table, "isOficial")}, ${col(qa.table, "mediaPath")}`,
        ["id"],
        byCompany(qa.table),
        (rows) =>
          rowByRow("quickAnswers", rows, async (tx, row) => {
            const sid = str(row.id);
            if ((await mapped(tx, "quickAnswer", [sid])).size) return void counts("quickAnswers").already++;
            if (bool(row.isOficial))
              return skip("quickAnswers", sid, "a Meta message template (synced from the Cloud API, not imported)");
            const shortcut = str(row.shortcut).replace(/^\//, "").trim();
            if (!shortcut) return skip("quickAnswers", sid, "no shortcut");
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
              counts("quickAnswers").merged++;
              report.merges.push({
                entity: "quickAnswers",
                sourceId: sid,
                into: existing.id,
                reason: "the same quick answer exists",
              });
              return remember(tx, "quickAnswer", [{ sourceId: sid, targetId: existing.id, merged: true }]);
            }
            const [created] = await q<{ id: number }>(
              tx,
              "insert into quick_answers (shortcut, message) values ($1, $2) returning id",
              [shortcut, str(row.message)],
            );
            counts("quickAnswers").imported++;
            await remember(tx, "quickAnswer", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
          }),
      );
    }

    // ---------------- tags
    if (has("Tags", "name")) {
      await scan(
        "tags",
        "Tags",
        `${keySelect("Tags", ["id"])}, "id", "name", ${col("Tags", "color")}`,
        ["id"],
        byCompany("Tags"),
        (rows) =>
          rowByRow("tags", rows, async (tx, row) => {
            const sid = str(row.id);
            if ((await mapped(tx, "tag", [sid])).size) return void counts("tags").already++;
            const name = str(row.name).trim();
            if (!name) return skip("tags", sid, "no name");
            const [existing] = await q<{ id: number }>(tx, "select id from tags where lower(name) = lower($1)", [name]);
            if (existing) {
              counts("tags").merged++;
              report.merges.push({ entity: "tags", sourceId: sid, into: existing.id, reason: "a tag with this name exists" });
              return remember(tx, "tag", [{ sourceId: sid, targetId: existing.id, merged: true }]);
            }
            const [created] = await q<{ id: number }>(tx, "insert into tags (name, color) values ($1, $2) returning id", [
              name,
              normaliseColor(row.color) ?? "#888888",
            ]);
            counts("tags").imported++;
            await remember(tx, "tag", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
          }),
      );
    }

    // ---------------- contacts (one per person: twins and LID aliases merge)
    const lidOf = new Map<string, string>(); // source contact id -> LID digits
    const ownerOfLid = new Map<string, string>(); // LID digits -> source contact id
    const learnLid = (contactId: unknown, lid: unknown) => {
      const l = digits(str(lid).split("@")[0] ?? "");
      if (!l || contactId === null || contactId === undefined) return;
      lidOf.set(str(contactId), l);
      if (!ownerOfLid.has(l)) ownerOfLid.set(l, str(contactId));
    };
    if (has("WhatsappLidMaps")) {
      const where = multi && has("WhatsappLidMaps", "companyId") ? `"companyId" = ${company}` : "1=1";
      for (const r of await source.query(`select "lid", "contactId" from "WhatsappLidMaps" where ${where}`))
        learnLid(r.contactId, r.lid);
    }
    const lidColumn = has("Contacts", "lid") ? "lid" : has("Contacts", "numberLid") ? "numberLid" : undefined;
    if (lidColumn) {
      for (const r of await source.query(
        `select "id", "${lidColumn}" as "lid" from "Contacts" where "${lidColumn}" is not null and "${lidColumn}" <> '' and ${byCompany("Contacts")}`,
      ))
        learnLid(r.id, r.lid);
    }
    /** Source contacts whose number is another contact's LID: folded into that contact after the first pass. */
    const aliases: Row[] = [];
    const contactSelect = `${keySelect("Contacts", ["id"])}, "id", "name", "number", ${col("Contacts", "email")}, ${col("Contacts", "profilePicUrl")}, ${col("Contacts", "isGroup")}, ${col("Contacts", "createdAt")}, ${col("Contacts", "updatedAt")}`;

    async function importContact(tx: Db, row: Row, aliasOf?: number) {
      const sid = str(row.id);
      if ((await mapped(tx, "contact", [sid])).size) return void counts("contacts").already++;
      const isGroup = bool(row.isGroup);
      const raw = str(row.number).trim();
      const number = isGroup ? raw.split("@")[0] || raw : digits(raw.split("@")[0] ?? "");
      if (!number) return skip("contacts", sid, "no number");
      const lid = lidOf.get(sid);
      const merge = async (into: number, reason: string) => {
        counts("contacts").merged++;
        report.merges.push({ entity: "contacts", sourceId: sid, into, reason });
        if (lid)
          await q(
            tx,
            "update contacts set lid = $1 where id = $2 and lid is null and not exists (select 1 from contacts where lid = $1)",
            [`${lid}@lid`, into],
          );
        await remember(tx, "contact", [{ sourceId: sid, targetId: into, merged: true }]);
      };
      if (aliasOf !== undefined) return merge(aliasOf, `its number ${number} is the LID of the contact it was merged into`);
      const [same] = await q<{ id: number }>(tx, "select id from contacts where number = $1", [number]);
      if (same) return merge(same.id, "a contact with this number exists");
      const twin = isGroup ? undefined : twinOf(number);
      if (twin) {
        const [other] = await q<{ id: number }>(tx, "select id from contacts where number = $1 and not is_group", [twin]);
        if (other) return merge(other.id, `Brazilian ninth-digit twin of ${twin}`);
      }
      if (lid) {
        const [byLid] = await q<{ id: number }>(tx, "select id from contacts where lid = $1 or number = $1", [`${lid}@lid`]);
        if (byLid) return merge(byLid.id, `the same WhatsApp LID ${lid}`);
      }
      const [created] = await q<{ id: number }>(
        tx,
        `insert into contacts (name, number, email, profile_pic_url, is_group, lid, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, coalesce($7, now()), coalesce($8, now())) returning id`,
        [
          str(row.name).trim() || number,
          number,
          str(row.email),
          /^https?:\/\//.test(str(row.profilePicUrl)) ? str(row.profilePicUrl) : "",
          isGroup,
          lid ? `${lid}@lid` : null,
          date(row.createdAt),
          date(row.updatedAt),
        ],
      );
      counts("contacts").imported++;
      await remember(tx, "contact", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
    }

    await scan("contacts", "Contacts", contactSelect, ["id"], byCompany("Contacts"), async (rows) => {
      const own = rows.filter((row) => {
        const owner = ownerOfLid.get(digits(str(row.number).split("@")[0] ?? ""));
        if (owner && owner !== str(row.id) && !bool(row.isGroup)) {
          aliases.push(row);
          return false;
        }
        return true;
      });
      if (!(await contactBatch(own))) await rowByRow("contacts", own, (tx, row) => importContact(tx, row));
      await contactFields(own.map((r) => str(r.id)));
    });
    for (let i = 0; i < aliases.length; i += batchSize) {
      const chunk = aliases.slice(i, i + batchSize);
      await rowByRow("contacts", chunk, async (tx, row) => {
        const owner = ownerOfLid.get(digits(str(row.number).split("@")[0] ?? "")) as string;
        const into = (await mapped(tx, "contact", [owner])).get(owner);
        await importContact(tx, row, into);
      });
      await contactFields(chunk.map((r) => str(r.id)));
    }

    /**
     * A batch of contacts with one lookup and one insert (the same rules as importContact); false,
     * with nothing kept, when it failed and the row-by-row path must take over.
     */
    async function contactBatch(rows: Row[]): Promise<boolean> {
      const snapshot = JSON.stringify(counts("contacts"));
      const lengths = [report.skips.length, report.merges.length];
      try {
        await inBatch(async (tx) => {
          const done = await mapped(
            tx,
            "contact",
            rows.map((r) => str(r.id)),
          );
          const fresh = rows.filter((r) => !done.has(str(r.id)));
          counts("contacts").already += rows.length - fresh.length;
          const prepared: { row: Row; sid: string; isGroup: boolean; number: string; twin?: string; lid?: string }[] = [];
          for (const row of fresh) {
            const sid = str(row.id);
            const isGroup = bool(row.isGroup);
            const raw = str(row.number).trim();
            const number = isGroup ? raw.split("@")[0] || raw : digits(raw.split("@")[0] ?? "");
            if (!number) {
              skip("contacts", sid, "no number");
              continue;
            }
            const lid = lidOf.get(sid);
            prepared.push({
              row,
              sid,
              isGroup,
              number,
              twin: isGroup ? undefined : twinOf(number),
              lid: lid ? `${lid}@lid` : undefined,
            });
          }
          if (!prepared.length) return;
          const numbers = prepared.flatMap((p) => [p.number, ...(p.twin ? [p.twin] : []), ...(p.lid ? [p.lid] : [])]);
          const lids = prepared.flatMap((p) => (p.lid ? [p.lid] : []));
          const existing = await q<{ id: number; number: string; lid: string | null; is_group: boolean }>(
            tx,
            // Joined through the unique btree indexes: as `number = any(…)` the planner may pick the
            // trigram GIN index of a table it has not analyzed yet, which takes seconds per batch.
            `select c.id, c.number, c.lid, c.is_group from unnest($1::text[]) as u(n) join contacts c on c.number = u.n
             union select c.id, c.number, c.lid, c.is_group from unnest($2::text[]) as u(n) join contacts c on c.lid = u.n`,
            [numbers, lids],
          );
          const byNumber = new Map(existing.map((c) => [c.number, c]));
          const byLid = new Map(existing.filter((c) => c.lid).map((c) => [c.lid as string, c]));
          const newIds = await q<{ id: string }>(
            tx,
            "select nextval(pg_get_serial_sequence('contacts', 'id')) as id from generate_series(1, $1::int)",
            [prepared.length],
          );
          const values: unknown[][] = [];
          const pairs: { sourceId: string; targetId: number; merged: boolean }[] = [];
          const lidUpdates: [string, number][] = [];
          for (const [i, p] of prepared.entries()) {
            let into: { id: number; lid: string | null } | undefined;
            let reason = "";
            const same = byNumber.get(p.number);
            const twin = p.twin ? byNumber.get(p.twin) : undefined;
            const byAlias = p.lid ? (byLid.get(p.lid) ?? byNumber.get(p.lid)) : undefined;
            if (same) [into, reason] = [same, "a contact with this number exists"];
            else if (twin && !twin.is_group) [into, reason] = [twin, `Brazilian ninth-digit twin of ${p.twin}`];
            else if (byAlias) [into, reason] = [byAlias, `the same WhatsApp LID ${(p.lid as string).replace("@lid", "")}`];
            if (into) {
              counts("contacts").merged++;
              report.merges.push({ entity: "contacts", sourceId: p.sid, into: into.id, reason });
              if (p.lid && !into.lid && !byLid.has(p.lid)) {
                lidUpdates.push([p.lid, into.id]);
                into.lid = p.lid;
                byLid.set(p.lid, { ...(into as { id: number; lid: string }), number: "", is_group: false });
              }
              pairs.push({ sourceId: p.sid, targetId: into.id, merged: true });
              continue;
            }
            const id = Number((newIds[i] as { id: string }).id);
            const row = { id, number: p.number, lid: p.lid ?? null, is_group: p.isGroup };
            byNumber.set(p.number, row);
            if (p.lid) byLid.set(p.lid, row);
            values.push([
              id,
              str(p.row.name).trim() || p.number,
              p.number,
              str(p.row.email),
              /^https?:\/\//.test(str(p.row.profilePicUrl)) ? str(p.row.profilePicUrl) : "",
              p.isGroup,
              p.lid ?? null,
              date(p.row.createdAt) ?? new Date(),
              date(p.row.updatedAt) ?? new Date(),
            ]);
            pairs.push({ sourceId: p.sid, targetId: id, merged: false });
          }
          if (values.length) {
            const column = (i: number) => values.map((v) => v[i]);
            await q(
              tx,
              `insert into contacts (id, name, number, email, profile_pic_url, is_group, lid, created_at, updated_at)
               select * from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::timestamptz[], $9::timestamptz[])`,
              Array.from({ length: 9 }, (_, i) => column(i)),
            );
            counts("contacts").imported += values.length;
          }
          for (const [lid, id] of lidUpdates) {
            await q(
              tx,
              "update contacts set lid = $1 where id = $2 and lid is null and not exists (select 1 from contacts where lid = $1)",
              [lid, id],
            );
          }
          await remember(tx, "contact", pairs);
        });
        return true;
      } catch {
        Object.assign(counts("contacts"), JSON.parse(snapshot));
        report.skips.length = lengths[0] as number;
        report.merges.length = lengths[1] as number;
        return false;
      }
    }

    async function contactFields(contactIds: string[]) {
      if (!has("ContactCustomFields") || !contactIds.length) return;
      const rows = await source.query(
        `select "id", "name", "value", "contactId" from "ContactCustomFields" where "contactId" in (${contactIds.map(() => "?").join(", ")}) order by "id"`,
        contactIds.map(Number),
      );
      if (!rows.length) return;
      counts("contactFields").source += rows.length;
      await rowByRow("contactFields", rows, async (tx, row) => {
        const sid = str(row.id);
        if ((await mapped(tx, "contactField", [sid])).size) return void counts("contactFields").already++;
        const contact = (await mapped(tx, "contact", [str(row.contactId)])).get(str(row.contactId));
        if (contact === undefined) return skip("contactFields", sid, "its contact was not imported");
        const [existing] = await q<{ id: number }>(
          tx,
          "select id from contact_extra_info where contact_id = $1 and name = $2 and value = $3",
          [contact, str(row.name), str(row.value)],
        );
        if (existing) {
          counts("contactFields").merged++;
          report.merges.push({
            entity: "contactFields",
            sourceId: sid,
            into: existing.id,
            reason: "the merged contact has the same field",
          });
          return remember(tx, "contactField", [{ sourceId: sid, targetId: existing.id, merged: true }]);
        }
        const [created] = await q<{ id: number }>(
          tx,
          "insert into contact_extra_info (contact_id, name, value) values ($1, $2, $3) returning id",
          [contact, str(row.name), str(row.value)],
        );
        counts("contactFields").imported++;
        await remember(tx, "contactField", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
      });
    }
    await links(
      "contactTags",
      "ContactTags",
      "contactId",
      "contact",
      "tagId",
      "tag",
      "contact_tags",
      "contact_id",
      "tag_id",
      "Contacts",
    );

    // ---------------- tickets
    await scan(
      "tickets",
      "Tickets",
      `${keySelect("Tickets", ["id"])}, "id", "status", "contactId", "userId", ${col("Tickets", "whatsappId")}, ${col("Tickets", "queueId")}, ${col("Tickets", "isGroup")}, ${col("Tickets", "unreadMessages")}, ${col("Tickets", "lastMessage")}, "createdAt", "updatedAt"`,
      ["id"],
      byCompany("Tickets"),
      async (rows) => {
        // Whole batches in one statement; the row-by-row path for SaaS sessions and for a batch that failed.
        if (!splitSessions && (await ticketBatch(rows))) return;
        await rowByRow("tickets", rows, async (tx, row) => {
          const sid = str(row.id);
          if ((await mapped(tx, "ticket", [sid])).size) return void counts("tickets").already++;
          const contact = (await mapped(tx, "contact", [str(row.contactId)])).get(str(row.contactId));
          if (contact === undefined) return skip("tickets", sid, `its contact ${str(row.contactId)} was not imported`);
          const lookup = async (entity: string, id: unknown) =>
            id === null || id === undefined ? null : ((await mapped(tx, entity, [str(id)])).get(str(id)) ?? null);
          const whatsapp = await lookup("connection", row.whatsappId);
          let status = ticketStatus(row);
          if (status !== "closed") {
            const [active] = await q(
              tx,
              "select 1 from tickets where contact_id = $1 and whatsapp_id is not distinct from $2 and status in ('pending', 'open')",
              [contact, whatsapp],
            );
            if (active) {
              report.adjustments.push({
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
              `insert into tickets (status, unread_messages, last_message, is_group, user_id, queue_id, contact_id, whatsapp_id, created_at, updated_at, closed_at)
               values ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9, now()), $10, $11) returning id`,
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
          const sessions = splitSessions
            ? await source.query(
                `select "id", "userId", "startedAt", "finishedAt", "createdAt" from "TicketTraking" where "ticketId" = ? order by "id"`,
                [Number(row.id)],
              )
            : [];
          let last: number;
          if (sessions.length > 1) {
            const pairs: { sourceId: string; targetId: number; merged: boolean }[] = [];
            for (const [i, session] of sessions.entries()) {
              const final = i === sessions.length - 1;
              const next = sessions[i + 1];
              const start = date(session.startedAt) ?? date(session.createdAt);
              const end = final
                ? updated
                : (date(session.finishedAt) ?? date(next?.startedAt) ?? date(next?.createdAt) ?? updated);
              const id = await insert({
                status: final ? status : "closed",
                user: (await lookup("user", session.userId)) ?? user,
                createdAt: start,
                updatedAt: end,
              });
              pairs.push({ sourceId: str(session.id), targetId: id, merged: false });
            }
            await remember(tx, "session", pairs);
            last = (pairs.at(-1) as { targetId: number }).targetId;
            report.adjustments.push({
              entity: "tickets",
              sourceId: sid,
              note: `one ticket row reused for ${sessions.length} service sessions (TicketTraking): ${sessions.length} conversations`,
            });
          } else {
            last = await insert({ status, user, createdAt: date(row.createdAt), updatedAt: updated });
          }
          counts("tickets").imported++;
          await remember(tx, "ticket", [{ sourceId: sid, targetId: last, merged: false }]);
        });
      },
    );
    await links(
      "ticketTags",
      "TicketTags",
      "ticketId",
      "ticket",
      "tagId",
      "tag",
      "ticket_tags",
      "ticket_id",
      "tag_id",
      "Tickets",
    );

    // ---------------- messages
    await importMessages();
    await linkQuotes();

    // ---------------- satisfaction ratings (SaaS line UserRatings) on the rated conversation
    if (has("UserRatings", "rate")) {
      await scan(
        "ratings",
        "UserRatings",
        `${keySelect("UserRatings", ["id"])}, "id", "ticketId", "rate", "createdAt"`,
        ["id"],
        byCompany("UserRatings"),
        (rows) =>
          rowByRow("ratings", rows, async (tx, row) => {
            const sid = str(row.id);
            if ((await mapped(tx, "rating", [sid])).size) return void counts("ratings").already++;
            const rate = int(row.rate);
            if (rate === null || !Number.isInteger(rate) || rate < 1 || rate > 5)
              return skip("ratings", sid, `the rate ${str(row.rate)} is not 1 to 5`);
            let ticket = (await mapped(tx, "ticket", [str(row.ticketId)])).get(str(row.ticketId));
            if (ticket === undefined) return skip("ratings", sid, "its ticket was not imported");
            const ratedAt = date(row.createdAt) ?? new Date();
            if (splitSessions) {
              // The session the answer came in: the last one started before it.
              const sessions = await source.query(
                `select "id", "startedAt", "createdAt" from "TicketTraking" where "ticketId" = ? order by "id"`,
                [Number(row.ticketId)],
              );
              const before = sessions.filter((x) => (date(x.startedAt) ?? date(x.createdAt) ?? new Date(0)) <= ratedAt).at(-1);
              if (before) ticket = (await mapped(tx, "session", [str(before.id)])).get(str(before.id)) ?? ticket;
            }
            await q(tx, "update tickets set rating = $1, rated_at = $2 where id = $3 and rating is null", [
              rate,
              ratedAt,
              ticket,
            ]);
            counts("ratings").imported++;
            await remember(tx, "rating", [{ sourceId: sid, targetId: ticket, merged: false }]);
          }),
      );
    }

    // ---------------- pending schedules become scheduled messages (only those still in the future)
    if (has("Schedules", "sendAt")) {
      const now = new Date();
      await scan(
        "schedules",
        "Schedules",
        `${keySelect("Schedules", ["id"])}, "id", "body", "sendAt", ${col("Schedules", "sentAt")}, ${col("Schedules", "status")}, "contactId", ${col("Schedules", "ticketId")}, ${col("Schedules", "userId")}`,
        ["id"],
        byCompany("Schedules"),
        (rows) =>
          rowByRow("schedules", rows, async (tx, row) => {
            const sid = str(row.id);
            if ((await mapped(tx, "schedule", [sid])).size) return void counts("schedules").already++;
            const sendAt = date(row.sendAt);
            const status = str(row.status).toUpperCase();
            if (row.sentAt || ["ENVIADA", "SENT", "ERRO", "ERROR"].includes(status)) {
              return skip("schedules", sid, "already sent (or failed) in the old system");
            }
            if (!sendAt || sendAt <= now) {
              return skip(
                "schedules",
                sid,
                `was due ${sendAt?.toISOString() ?? "(no date)"} and not sent by the old system: not sent now`,
              );
            }
            const contact = (await mapped(tx, "contact", [str(row.contactId)])).get(str(row.contactId));
            if (contact === undefined) return skip("schedules", sid, "its contact was not imported");
            const ticket =
              row.ticketId === null ? undefined : (await mapped(tx, "ticket", [str(row.ticketId)])).get(str(row.ticketId));
            const user = row.userId === null ? undefined : (await mapped(tx, "user", [str(row.userId)])).get(str(row.userId));
            const [created] = await q<{ id: number }>(
              tx,
              `insert into scheduled_messages (ticket_id, contact_id, whatsapp_id, user_id, body, send_at)
               values ($1, $2, (select whatsapp_id from tickets where id = $1), $3, $4, $5) returning id`,
              [ticket ?? null, contact, user ?? null, str(row.body), sendAt],
            );
            counts("schedules").imported++;
            await remember(tx, "schedule", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
          }),
      );
    }

    // ---------------- settings that mean the same here (never secrets: API tokens, payment gateways, ERPs)
    if (has("Settings", "key")) await importSettings();

    // ---------------- private notes (Ticketz/SaaS TicketNotes)
    if (has("TicketNotes")) {
      await scan(
        "notes",
        "TicketNotes",
        `${keySelect("TicketNotes", ["id"])}, "id", "note", "userId", "ticketId", "createdAt", "updatedAt"`,
        ["id"],
        multi ? `"ticketId" in (select "id" from "Tickets" where "companyId" = ${company})` : "1=1",
        (rows) =>
          rowByRow("notes", rows, async (tx, row) => {
            const sid = str(row.id);
            if ((await mapped(tx, "note", [sid])).size) return void counts("notes").already++;
            const ticket = (await mapped(tx, "ticket", [str(row.ticketId)])).get(str(row.ticketId));
            if (ticket === undefined) return skip("notes", sid, "its ticket was not imported");
            const user = row.userId === null ? undefined : (await mapped(tx, "user", [str(row.userId)])).get(str(row.userId));
            const [created] = await q<{ id: number }>(
              tx,
              `insert into messages (ticket_id, contact_id, user_id, body, from_me, read, ack, is_note, created_at, updated_at)
               select id, contact_id, $2, $3, true, true, 0, true, coalesce($4, now()), coalesce($5, now()) from tickets where id = $1 returning id`,
              [ticket, user ?? null, str(row.note), date(row.createdAt), date(row.updatedAt)],
            );
            counts("notes").imported++;
            await remember(tx, "note", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
          }),
      );
    }
  }

  async function importSettings() {
    const SAME: Record<string, string> = {
      userCreation: "userCreation",
      allowSignup: "userCreation",
      call: "call",
      CheckMsgIsGroup: "CheckMsgIsGroup",
      timeCreateNewTicket: "timeCreateNewTicket",
    };
    const where = multi && has("Settings", "companyId") ? `"companyId" = ${company}` : "1=1";
    const rows = await source.query(`select "key", "value" from "Settings" where ${where} order by "key"`);
    const wanted = rows.filter((r) => SAME[str(r.key)]);
    counts("settings").source += wanted.length;
    await inBatch(async (tx) => {
      for (const row of wanted) {
        const key = SAME[str(row.key)] as string;
        const value = str(row.value).trim();
        const valid =
          key === "timeCreateNewTicket"
            ? (NEW_TICKET_DELAYS as readonly number[]).includes(Number(value))
            : value === "enabled" || value === "disabled";
        if (!valid) {
          skip("settings", str(row.key), `the value "${value}" has no meaning here`);
          continue;
        }
        const [current] = await q<{ value: string }>(tx, "select value from settings where key = $1", [key]);
        if (current?.value === value) {
          counts("settings").already++;
          continue;
        }
        await q(
          tx,
          "insert into settings (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value, updated_at = now()",
          [key, value],
        );
        counts("settings").imported++;
        report.adjustments.push({
          entity: "settings",
          sourceId: str(row.key),
          note: `${key} set to ${value}${current ? ` (was ${current.value})` : ""}`,
        });
      }
    });
  }

  /** A link table (no id of its own): rows whose both ends were imported; idempotent through the target's primary key. */
  async function links(
    entity: Entity,
    table: string,
    leftColumn: string,
    leftEntity: string,
    rightColumn: string,
    rightEntity: string,
    target: string,
    targetLeft: string,
    targetRight: string,
    parentTable: string,
  ) {
    if (!has(table)) return;
    const where = multi ? `"${leftColumn}" in (select "id" from "${parentTable}" where "companyId" = ${company})` : "1=1";
    await scan(
      entity,
      table,
      `${keySelect(table, [leftColumn, rightColumn])}, "${leftColumn}" as "l", "${rightColumn}" as "r"`,
      [leftColumn, rightColumn],
      where,
      (rows) =>
        inBatch(async (tx) => {
          const left = await mapped(
            tx,
            leftEntity,
            rows.map((r) => str(r.l)),
          );
          const right = await mapped(
            tx,
            rightEntity,
            rows.map((r) => str(r.r)),
          );
          const pairs: [number, number][] = [];
          for (const row of rows) {
            const l = left.get(str(row.l));
            const r = right.get(str(row.r));
            if (l === undefined || r === undefined)
              skip(entity, `${str(row.l)}/${str(row.r)}`, `its ${l === undefined ? leftEntity : rightEntity} was not imported`);
            else pairs.push([l, r]);
          }
          if (!pairs.length) return;
          const inserted = await q(
            tx,
            `insert into ${target} (${targetLeft}, ${targetRight}) select * from unnest($1::int[], $2::int[]) on conflict do nothing returning 1`,
            [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
          );
          counts(entity).imported += inserted.length;
          counts(entity).already += pairs.length - inserted.length;
        }),
    );
  }

  /** Normalise a source status to ours ("chatbot" waits as pending; anything else unknown is closed, reported). */
  function ticketStatus(row: Row): string {
    let status = str(row.status);
    if (status === "chatbot") status = "pending";
    if (!["pending", "open", "closed"].includes(status)) {
      report.adjustments.push({
        entity: "tickets",
        sourceId: str(row.id),
        note: `status ${status || "(none)"} imported as closed`,
      });
      status = "closed";
    }
    return status;
  }

  /** A batch of tickets in one insert; false (nothing kept) when it failed, for the row-by-row path to take over. */
  async function ticketBatch(rows: Row[]): Promise<boolean> {
    const snapshot = JSON.stringify(counts("tickets"));
    const lengths = [report.skips.length, report.adjustments.length];
    try {
      await inBatch(async (tx) => {
        const done = await mapped(
          tx,
          "ticket",
          rows.map((r) => str(r.id)),
        );
        const fresh = rows.filter((r) => !done.has(str(r.id)));
        counts("tickets").already += rows.length - fresh.length;
        if (!fresh.length) return;
        const ids = (column: string) => [...new Set(fresh.map((r) => str(r[column])).filter(Boolean))];
        const contactsM = await mapped(tx, "contact", ids("contactId"));
        const usersM = await mapped(tx, "user", ids("userId"));
        const queuesM = await mapped(tx, "queue", ids("queueId"));
        const connectionsM = await mapped(tx, "connection", ids("whatsappId"));
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
            skip("tickets", sid, `its contact ${str(row.contactId)} was not imported`);
            continue;
          }
          const whatsapp = connectionsM.get(str(row.whatsappId)) ?? null;
          let status = ticketStatus(row);
          if (status !== "closed") {
            const key = `${contact}|${whatsapp ?? ""}`;
            if (active.has(key)) {
              report.adjustments.push({
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
          `insert into tickets (id, status, unread_messages, last_message, is_group, user_id, queue_id, contact_id, whatsapp_id, created_at, updated_at, closed_at)
           select * from unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::boolean[], $6::int[], $7::int[], $8::int[], $9::int[], $10::timestamptz[], $11::timestamptz[], $12::timestamptz[])`,
          Array.from({ length: 12 }, (_, i) => column(i)),
        );
        counts("tickets").imported += values.length;
        await remember(
          tx,
          "ticket",
          values.map((v, i) => ({ sourceId: order[i] as string, targetId: v[0] as number, merged: false })),
        );
      });
      return true;
    } catch {
      Object.assign(counts("tickets"), JSON.parse(snapshot));
      report.skips.length = lengths[0] as number;
      report.adjustments.length = lengths[1] as number;
      return false;
    }
  }

  const ticketz = flavour === "ticketz";
  const splitSessions = flavour === "saas" && has("TicketTraking", "ticketId");
  const compositeMessageIds = flavour === "ticketz" || flavour === "saas" || flavour === "multiflow";
  const messageSourceId = (row: Row) => (compositeMessageIds ? `${str(row.ticketId)}:${str(row.id)}` : str(row.id));

  async function importMessages() {
    const M = "Messages";
    const select = [
      keySelect(M, ["ticketId", "id"]),
      `"id"`,
      `"ticketId"`,
      col(M, "contactId"),
      `"body"`,
      `"fromMe"`,
      col(M, "read"),
      col(M, "ack"),
      col(M, "mediaType"),
      col(M, "mediaUrl"),
      col(M, "isDeleted"),
      col(M, "isEdited"),
      col(M, "isPrivate"),
      col(M, "userId"),
      col(M, "dataJson"),
      col(M, "wid", "waId"),
      `"createdAt"`,
      `"updatedAt"`,
    ].join(", ");
    const where = multi
      ? has(M, "companyId")
        ? `"companyId" = ${company}`
        : `"ticketId" in (select "id" from "Tickets" where "companyId" = ${company})`
      : "1=1";
    await scan("messages", M, select, ["ticketId", "id"], where, async (rows) => {
      const attempt = async (batch: Row[], tx: Db) => {
        const ids = batch.map(messageSourceId);
        const done = await mapped(tx, "message", ids);
        const fresh = batch.filter((r) => !done.has(messageSourceId(r)));
        counts("messages").already += batch.length - fresh.length;
        if (!fresh.length) return;
        const tickets = await mapped(tx, "ticket", [...new Set(fresh.map((r) => str(r.ticketId)))]);
        // SaaS baseline: the session (TicketTraking) each message belongs to, by its time.
        const sessionsOf = new Map<string, { start: number; target: number }[]>();
        if (splitSessions && tickets.size) {
          const sourceTickets = [...tickets.keys()];
          const sessions = await source.query(
            `select "id", "ticketId", "startedAt", "createdAt" from "TicketTraking" where "ticketId" in (${sourceTickets.map(() => "?").join(", ")}) order by "id"`,
            sourceTickets.map(Number),
          );
          const targets = await mapped(
            tx,
            "session",
            sessions.map((r) => str(r.id)),
          );
          for (const session of sessions) {
            const target = targets.get(str(session.id));
            if (target === undefined) continue;
            const list = sessionsOf.get(str(session.ticketId)) ?? [];
            list.push({ start: (date(session.startedAt) ?? date(session.createdAt) ?? new Date(0)).getTime(), target });
            sessionsOf.set(str(session.ticketId), list);
          }
        }
        const sessionTargets = [...sessionsOf.values()].flat().map((s) => s.target);
        const ticketRows = tickets.size
          ? await q<{ id: number; whatsapp_id: number | null; contact_id: number }>(
              tx,
              "select id, whatsapp_id, contact_id from tickets where id = any($1::int[])",
              [[...tickets.values(), ...sessionTargets]],
            )
          : [];
        const ticketInfo = new Map(ticketRows.map((t) => [t.id, t]));
        const contactsMap = await mapped(tx, "contact", [...new Set(fresh.map((r) => str(r.contactId)).filter(Boolean))]);
        const usersMap = await mapped(tx, "user", [...new Set(fresh.map((r) => str(r.userId)).filter(Boolean))]);
        const values: unknown[][] = [];
        const order: string[] = [];
        for (const row of fresh) {
          const sid = messageSourceId(row);
          const sent = (has(M, "dataJson") ? originalTimestamp(row.dataJson) : null) ?? date(row.createdAt) ?? new Date();
          let ticketId = tickets.get(str(row.ticketId));
          const sessions = sessionsOf.get(str(row.ticketId));
          if (sessions?.length) {
            const at = sent.getTime();
            ticketId = (sessions.filter((x) => x.start <= at).at(-1) ?? (sessions[0] as { target: number })).target;
          }
          const info = ticketId === undefined ? undefined : ticketInfo.get(ticketId);
          if (!info) {
            skip("messages", sid, "its ticket was not imported");
            continue;
          }
          const media = await copyMedia(row, sid);
          let ack = int(row.ack) ?? 0;
          if (ticketz) ack -= 1;
          ack = Math.max(0, Math.min(4, ack));
          const mediaType = MEDIA_TYPE[str(row.mediaType)] ?? (str(row.mediaType) ? "document" : "chat");
          values.push([
            has(M, "wid") ? str(row.waId) || null : str(row.id),
            info.whatsapp_id,
            info.id,
            contactsMap.get(str(row.contactId)) ?? info.contact_id,
            usersMap.get(str(row.userId)) ?? null,
            str(row.body),
            bool(row.fromMe),
            row.read === null ? true : bool(row.read),
            ack,
            media ? mediaType : "chat",
            media?.path ?? null,
            media?.name ?? null,
            media?.error ?? null,
            bool(row.isDeleted),
            bool(row.isEdited),
            bool(row.isPrivate),
            sent,
            date(row.updatedAt) ?? sent,
          ]);
          order.push(sid);
        }
        if (!values.length) return;
        // Ids drawn first: each source row knows its new id, and a row the insert skipped (the
        // same WhatsApp message already stored) is told apart by its id missing from RETURNING.
        const newIds = await q<{ id: string }>(
          tx,
          "select nextval(pg_get_serial_sequence('messages', 'id')) as id from generate_series(1, $1::int)",
          [values.length],
        );
        values.forEach((v, i) => {
          v.unshift(Number((newIds[i] as { id: string }).id));
        });
        const column = (i: number) => values.map((v) => v[i]);
        const inserted = await q<{ id: string }>(
          tx,
          `insert into messages (id, wid, whatsapp_id, ticket_id, contact_id, user_id, body, from_me, read, ack, media_type, media_path, media_name, media_error, is_deleted, is_edited, is_note, created_at, updated_at)
           select * from unnest($1::bigint[], $2::text[], $3::int[], $4::int[], $5::int[], $6::int[], $7::text[], $8::boolean[], $9::boolean[], $10::int[], $11::text[], $12::text[], $13::text[], $14::text[], $15::boolean[], $16::boolean[], $17::boolean[], $18::timestamptz[], $19::timestamptz[])
           on conflict do nothing returning id`,
          Array.from({ length: 19 }, (_, i) => column(i)),
        );
        const created = new Set(inserted.map((r) => Number(r.id)));
        const pairs: { sourceId: string; targetId: number; merged: boolean }[] = [];
        for (let i = 0; i < values.length; i++) {
          const v = values[i] as unknown[];
          const sid = order[i] as string;
          if (created.has(v[0] as number)) {
            counts("messages").imported++;
            pairs.push({ sourceId: sid, targetId: v[0] as number, merged: false });
            continue;
          }
          const [existing] = await q<{ id: string }>(tx, "select id from messages where whatsapp_id = $1 and wid = $2", [
            v[2],
            v[1],
          ]);
          if (existing) {
            counts("messages").merged++;
            report.merges.push({
              entity: "messages",
              sourceId: sid,
              into: Number(existing.id),
              reason: "the same WhatsApp message (id and connection) is already stored",
            });
            pairs.push({ sourceId: sid, targetId: Number(existing.id), merged: true });
          } else skip("messages", sid, "not stored (conflict)");
        }
        await remember(tx, "message", pairs);
      };
      const snapshot = JSON.stringify(counts("messages"));
      const lengths = [report.skips.length, report.merges.length];
      try {
        await inBatch((tx) => attempt(rows, tx));
      } catch {
        Object.assign(counts("messages"), JSON.parse(snapshot));
        report.skips.length = lengths[0] as number;
        report.merges.length = lengths[1] as number;
        for (const row of rows) {
          try {
            await inBatch((tx) => attempt([row], tx));
          } catch (error) {
            skip("messages", messageSourceId(row), `failed: ${(error as Error).message.split("\n")[0]}`);
          }
        }
      }
    });
  }

  async function linkQuotes() {
    const M = "Messages";
    if (!has(M, "quotedMsgId")) return;
    const where = `"quotedMsgId" is not null${multi && has(M, "companyId") ? ` and "companyId" = ${company}` : ""}`;
    let last: unknown[] | undefined;
    for (;;) {
      const rows = await source.query(
        `select "ticketId", "id", "quotedMsgId" from "${M}" where ${where}${last ? ` and ("ticketId", "id") > (?, ?)` : ""} order by "ticketId", "id" limit ${batchSize}`,
        last ?? [],
      );
      if (!rows.length) break;
      await inBatch(async (tx) => {
        const own = rows.map(messageSourceId);
        const quoted = rows.map((r) => (compositeMessageIds ? `${str(r.ticketId)}:${str(r.quotedMsgId)}` : str(r.quotedMsgId)));
        const ownMap = await mapped(tx, "message", own);
        const quotedMap = await mapped(tx, "message", quoted);
        const pairs: [number, number][] = [];
        rows.forEach((_, i) => {
          const a = ownMap.get(own[i] as string);
          const b = quotedMap.get(quoted[i] as string);
          if (a !== undefined && b !== undefined && a !== b) pairs.push([a, b]);
        });
        if (pairs.length) {
          await q(
            tx,
            `update messages m set quoted_msg_id = p.q from unnest($1::bigint[], $2::bigint[]) as p(id, q)
             where m.id = p.id and m.quoted_msg_id is null`,
            [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
          );
        }
      });
      const lastRow = rows[rows.length - 1] as Row;
      last = [lastRow.ticketId, lastRow.id];
      if (rows.length < batchSize) break;
    }
  }

  /** Copy a message's file into Zapdesk's media storage; a file that cannot be found is reported and marked. */
  async function copyMedia(row: Row, sid: string): Promise<{ path?: string; name?: string; error?: string } | undefined> {
    const url = str(row.mediaUrl).trim();
    if (!url) return undefined;
    const name = decodeURIComponent(url.split("/").pop() ?? url);
    if (/^https?:\/\//i.test(url)) {
      report.media.remote++;
      report.adjustments.push({
        entity: "messages",
        sourceId: sid,
        note: `its file is at ${url}, outside the old system's folder: not copied`,
      });
      return { name, error: IMPORT_MEDIA_MISSING };
    }
    const relative = normalize(url.replace(/^\/+/, "").replace(/^public\//, ""));
    if (relative.startsWith("..") || isAbsolute(relative)) {
      report.media.missing++;
      skipMedia(sid, url);
      return { name, error: IMPORT_MEDIA_MISSING };
    }
    const companyDir = company !== undefined ? [`company${company}`] : [];
    const candidates: string[] = [];
    for (const dir of options.mediaDirs ?? []) {
      candidates.push(join(dir, relative));
      for (const c of companyDir) candidates.push(join(dir, c, relative));
    }
    for (const file of candidates) {
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      if (options.dryRun || !options.storage) {
        report.media.copied++;
        report.media.bytes += info.size;
        return { name };
      }
      const ext = extname(name).slice(1).toLowerCase() || "bin";
      const stored = await options.storage.saveStream(createReadStream(file), ext, {
        maxBytes: options.maxMediaBytes ?? 1024 * 1024 * 1024,
      });
      report.media.copied++;
      report.media.bytes += stored.size;
      return { path: stored.path, name };
    }
    report.media.missing++;
    skipMedia(sid, url);
    return { name, error: IMPORT_MEDIA_MISSING };
  }
  function skipMedia(sid: string, url: string) {
    report.adjustments.push({ entity: "messages", sourceId: sid, note: `file not found in the old system: ${url}` });
  }

  try {
    if (options.dryRun) {
      await database.db
        .transaction(async (tx) => {
          outer = tx as unknown as Db;
          await pipeline();
          await verify(tx as unknown as Db);
          throw new DryRunRollback();
        })
        .catch((error) => {
          if (!(error instanceof DryRunRollback)) throw error;
        });
    } else {
      await pipeline();
      await verify(database.db);
    }
  } finally {
    outer = undefined;
  }
  report.finishedAt = new Date().toISOString();
  return report;

  /** Reconcile counts per table against import_map, and compare a sample of conversations message by message. */
  async function verify(db: Db) {
    const entityKey: Partial<Record<Entity, string>> = {
      queues: "queue",
      users: "user",
      connections: "connection",
      quickAnswers: "quickAnswer",
      tags: "tag",
      contacts: "contact",
      contactFields: "contactField",
      tickets: "ticket",
      messages: "message",
      notes: "note",
      ratings: "rating",
      schedules: "schedule",
    };
    const skippedBy = new Map<string, number>();
    for (const s of report.skips) skippedBy.set(`${s.entity}|${s.sourceId}`, 1);
    for (const entity of ENTITIES) {
      const e = entityKey[entity];
      const c = counts(entity);
      if (!e) {
        report.verification.tables.push({
          entity,
          source: c.source,
          accounted: c.imported + c.already + c.skipped,
          ok: c.imported + c.already + c.skipped === c.source,
        });
        continue;
      }
      const [row] = await q<{ n: string }>(db, "select count(*) as n from import_map where source = $1 and entity = $2", [
        key,
        e,
      ]);
      const accounted = Number(row?.n ?? 0) + c.skipped;
      report.verification.tables.push({ entity, source: c.source, accounted, ok: accounted === c.source });
    }
    // A sample of conversations, message by message (body and direction, in order).
    const sample = await q<{ source_id: string; target_id: string }>(
      db,
      "select source_id, target_id from import_map where source = $1 and entity = 'ticket' order by md5(source_id) limit 5",
      [key],
    );
    for (const s of sample) {
      const sourceRows = await source.query<Row>(
        `select "id", "ticketId", "body", "fromMe" from "Messages" where "ticketId" = ? order by "id"`,
        [Number(s.source_id)],
      );
      const ids = sourceRows.map(messageSourceId);
      const mappedIds = await mapped(db, "message", ids);
      const targets = await q<{ id: string; body: string; from_me: boolean }>(
        db,
        "select id, body, from_me from messages where id = any($1::bigint[])",
        [[...mappedIds.values()]],
      );
      const byId = new Map(targets.map((t) => [Number(t.id), t]));
      let ok = true;
      sourceRows.forEach((r, i) => {
        const target = byId.get(mappedIds.get(ids[i] as string) ?? -1);
        const skipped = skippedBy.has(`messages|${ids[i]}`);
        if (skipped) return;
        if (!target || target.body !== str(r.body) || target.from_me !== bool(r.fromMe)) ok = false;
      });
      const [n] = await q<{ n: string }>(db, "select count(*) as n from messages where ticket_id = $1 and not is_note", [
        Number(s.target_id),
      ]);
      report.verification.sample.push({
        sourceTicket: s.source_id,
        ticket: Number(s.target_id),
        sourceMessages: sourceRows.length,
        messages: Number(n?.n ?? 0),
        ok,
      });
    }
    report.verification.complete = report.verification.tables.every((t) => t.ok) && report.verification.sample.every((s) => s.ok);
  }
}

async function pickCompany(source: Source, wanted: number | undefined): Promise<number> {
  const companies = await source.query<{ id: number | string; name: string }>(
    `select "id", "name" from "Companies" order by "id"`,
  );
  if (wanted !== undefined) {
    if (!companies.some((c) => Number(c.id) === wanted)) {
      throw new ImportUsageError(
        `company ${wanted} is not in the source (it has ${companies.map((c) => `${c.id} "${c.name}"`).join(", ") || "none"})`,
      );
    }
    return wanted;
  }
  if (companies.length === 1) return Number((companies[0] as { id: number }).id);
  throw new ImportUsageError(
    `the source holds ${companies.length} companies: choose one with --company <id> (${companies.map((c) => `${c.id} "${c.name}"`).join(", ")})`,
  );
}

export class ImportUsageError extends Error {}
