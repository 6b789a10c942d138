import { twinOf } from "../channels/chat-address.js";
import type { Db } from "../db/client.js";
import { contactBatch } from "./contact-batch.js";
import { q, type Run } from "./context.js";
import { bool, date, digits, str } from "./convert.js";
import { importLinks } from "./links.js";
import type { Row } from "./source.js";

/** Who is who by WhatsApp LID: Ticketz `WhatsappLidMaps`, Multiflow `Contacts.lid`, Press `numberLid`. */
export interface LidIndex {
  /** Source contact id -> LID digits. */
  lidOf: Map<string, string>;
  /** LID digits -> the source contact that owns it. */
  ownerOfLid: Map<string, string>;
}

async function readLids(run: Run): Promise<LidIndex> {
  const lidOf = new Map<string, string>();
  const ownerOfLid = new Map<string, string>();
  const learnLid = (contactId: unknown, lid: unknown) => {
    const l = digits(str(lid).split("@")[0] ?? "");
    if (!l || contactId === null || contactId === undefined) return;
    lidOf.set(str(contactId), l);
    if (!ownerOfLid.has(l)) ownerOfLid.set(l, str(contactId));
  };
  if (run.has("WhatsappLidMaps")) {
    const where = run.multi && run.has("WhatsappLidMaps", "companyId") ? `"companyId" = ${run.company}` : "1=1";
    for (const r of await run.source.query(`select "lid", "contactId" from "WhatsappLidMaps" where ${where}`))
      learnLid(r.contactId, r.lid);
  }
  const lidColumn = run.has("Contacts", "lid") ? "lid" : run.has("Contacts", "numberLid") ? "numberLid" : undefined;
  if (lidColumn) {
    for (const r of await run.source.query(
      `select "id", "${lidColumn}" as "lid" from "Contacts" where "${lidColumn}" is not null and "${lidColumn}" <> '' and ${run.byCompany("Contacts")}`,
    ))
      learnLid(r.id, r.lid);
  }
  return { lidOf, ownerOfLid };
}

/**
 * Contacts, one per person: Brazilian ninth-digit twins and LID aliases merge into one contact
 * (each merge reported), with their custom fields as extra info and their tags.
 */
export async function importContacts(run: Run) {
  const lids = await readLids(run);
  const { ownerOfLid } = lids;
  /** Source contacts whose number is another contact's LID: folded into that contact after the first pass. */
  const aliases: Row[] = [];
  const contactSelect = `${run.keySelect("Contacts", ["id"])}, "id", "name", "number", ${run.col("Contacts", "email")}, ${run.col("Contacts", "profilePicUrl")}, ${run.col("Contacts", "isGroup")}, ${run.col("Contacts", "createdAt")}, ${run.col("Contacts", "updatedAt")}`;

  await run.scan("contacts", "Contacts", contactSelect, ["id"], run.byCompany("Contacts"), async (rows) => {
    const own = rows.filter((row) => {
      const owner = ownerOfLid.get(digits(str(row.number).split("@")[0] ?? ""));
      if (owner && owner !== str(row.id) && !bool(row.isGroup)) {
        aliases.push(row);
        return false;
      }
      return true;
    });
    if (!(await contactBatch(run, lids, own)))
      await run.rowByRow("contacts", own, (tx, row) => importContact(run, lids, tx, row));
    await contactFields(
      run,
      own.map((r) => str(r.id)),
    );
  });
  for (let i = 0; i < aliases.length; i += run.batchSize) {
    const chunk = aliases.slice(i, i + run.batchSize);
    await run.rowByRow("contacts", chunk, async (tx, row) => {
      const owner = ownerOfLid.get(digits(str(row.number).split("@")[0] ?? "")) as string;
      const into = (await run.mapped(tx, "contact", [owner])).get(owner);
      await importContact(run, lids, tx, row, into);
    });
    await contactFields(
      run,
      chunk.map((r) => str(r.id)),
    );
  }

  await importLinks(run, {
    entity: "contactTags",
    table: "ContactTags",
    left: { column: "contactId", entity: "contact" },
    right: { column: "tagId", entity: "tag" },
    target: "contact_tags",
    targetLeft: "contact_id",
    targetRight: "tag_id",
    parentTable: "Contacts",
  });
}

/** One contact in a transaction: the row-by-row path (LID aliases, and a batch that failed). */
async function importContact(run: Run, { lidOf }: LidIndex, tx: Db, row: Row, aliasOf?: number) {
  const sid = str(row.id);
  if ((await run.mapped(tx, "contact", [sid])).size) return void run.counts("contacts").already++;
  const isGroup = bool(row.isGroup);
  const raw = str(row.number).trim();
  const number = isGroup ? raw.split("@")[0] || raw : digits(raw.split("@")[0] ?? "");
  if (!number) return run.skip("contacts", sid, "no number");
  const lid = lidOf.get(sid);
  const merge = async (into: number, reason: string) => {
    run.counts("contacts").merged++;
    run.report.merges.push({ entity: "contacts", sourceId: sid, into, reason });
    if (lid)
      await q(
        tx,
        "update contacts set lid = $1 where id = $2 and lid is null and not exists (select 1 from contacts where lid = $1)",
        [`${lid}@lid`, into],
      );
    await run.remember(tx, "contact", [{ sourceId: sid, targetId: into, merged: true }]);
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
  run.counts("contacts").imported++;
  await run.remember(tx, "contact", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
}

async function contactFields(run: Run, contactIds: string[]) {
  if (!run.has("ContactCustomFields") || !contactIds.length) return;
  const rows = await run.source.query(
    `select "id", "name", "value", "contactId" from "ContactCustomFields" where "contactId" in (${contactIds.map(() => "?").join(", ")}) order by "id"`,
    contactIds.map(Number),
  );
  if (!rows.length) return;
  run.counts("contactFields").source += rows.length;
  await run.rowByRow("contactFields", rows, async (tx, row) => {
    const sid = str(row.id);
    if ((await run.mapped(tx, "contactField", [sid])).size) return void run.counts("contactFields").already++;
    const contact = (await run.mapped(tx, "contact", [str(row.contactId)])).get(str(row.contactId));
    if (contact === undefined) return run.skip("contactFields", sid, "its contact was not imported");
    const [existing] = await q<{ id: number }>(
      tx,
      "select id from contact_extra_info where contact_id = $1 and name = $2 and value = $3",
      [contact, str(row.name), str(row.value)],
    );
    if (existing) {
      run.counts("contactFields").merged++;
      run.report.merges.push({
        entity: "contactFields",
        sourceId: sid,
        into: existing.id,
        reason: "the merged contact has the same field",
      });
      return run.remember(tx, "contactField", [{ sourceId: sid, targetId: existing.id, merged: true }]);
    }
    const [created] = await q<{ id: number }>(
      tx,
      "insert into contact_extra_info (contact_id, name, value) values ($1, $2, $3) returning id",
      [contact, str(row.name), str(row.value)],
    );
    run.counts("contactFields").imported++;
    await run.remember(tx, "contactField", [{ sourceId: sid, targetId: (created as { id: number }).id, merged: false }]);
  });
}
