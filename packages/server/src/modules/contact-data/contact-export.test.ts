import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG, query, rowsHolding, seedPerson } from "../../../test/contact-data.js";
import { customerNumber, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { readZip } from "../../../test/zip-reader.js";

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
});
afterAll(async () => {
  await t.close();
});

interface ExportedMessage {
  id: number;
  body: string;
  fromMe: boolean;
  sentBy: string | null;
  internalNote: boolean;
  file: string | null;
  group?: string;
}
interface Exported {
  format: string;
  contact: { id: number; name: string; number: string; email: string; whatsappLid: string };
  extraInfo: { name: string; value: string }[];
  tags: string[];
  ratings: { rating: number }[];
  scheduledMessages: { body: string; fileName: string }[];
  consent: unknown[];
  tickets: { id: number; status: string; messages: ExportedMessage[] }[];
  groupMessages: ExportedMessage[];
}

/** Issue 22 §2: everything held about one contact, as a zip an admin downloads (read back here). */
describe("exporting a contact's data", () => {
  it("streams a zip with data.json and every file, recorded in the audit trail without personal data", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const group = { id: `1203630${customerNumber()}`, name: `Grupo ${customerNumber()}` };
    const person = await seedPerson(t, admin, connection, group);
    const bystander = await seedPerson(t, admin, connection, group);

    const res = await t.app.inject({ method: "GET", url: `/api/contacts/${person.contactId}/data/export`, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toMatch(
      new RegExp(`^attachment; filename="contact-${person.contactId}-\\d{4}-\\d{2}-\\d{2}\\.zip"$`),
    );
    const files = readZip(res.rawPayload);
    const data = JSON.parse(files.get("data.json")?.toString() ?? "") as Exported;

    expect(data.format).toBe("zapdesk-contact-export");
    expect(data.contact).toMatchObject({
      id: person.contactId,
      name: person.name,
      number: person.number,
      email: `${person.word}@example.com`,
      whatsappLid: person.lid,
    });
    expect(data.extraInfo).toEqual([expect.objectContaining({ name: "CPF", value: `cpf ${person.word}` })]);
    expect(data.tags).toHaveLength(1);
    expect(data.ratings).toEqual([expect.objectContaining({ rating: 5 })]);
    expect(data.scheduledMessages).toEqual([expect.objectContaining({ body: `agendada ${person.word}`, fileName: "plano.png" })]);
    expect(data.consent).toEqual([]);
    expect(data.tickets.map((x) => x.id).sort()).toEqual([person.ticketId, person.oldTicketId].sort());

    const current = data.tickets.find((x) => x.id === person.ticketId)!;
    const bodies = current.messages.map((m) => m.body);
    for (const body of [`primeira ${person.word}`, `foto ${person.word}`, `resposta ${person.word}`, `nota ${person.word}`]) {
      expect(bodies).toContain(body);
    }
    expect(current.messages.find((m) => m.body.startsWith("nota"))).toMatchObject({ internalNote: true, sentBy: admin.name });
    expect(current.messages.find((m) => m.body.startsWith("resposta"))).toMatchObject({ fromMe: true, sentBy: admin.name });
    const photo = current.messages.find((m) => m.body.startsWith("foto"))!;
    expect(photo.file).toBe(`media/${photo.id}-foto-${person.word}.png`);
    expect(files.get(photo.file!)?.equals(PNG)).toBe(true);
    expect(data.groupMessages).toEqual([expect.objectContaining({ body: `no grupo ${person.word}`, group: group.name })]);
    const scheduledFile = [...files.keys()].find((name) => name.startsWith("media/scheduled-"));
    expect(scheduledFile).toMatch(/^media\/scheduled-\d+-plano\.png$/);
    expect(files.get(scheduledFile!)?.equals(Buffer.concat([PNG, Buffer.from(person.word)]))).toBe(true);
    expect(files.has("README.txt")).toBe(true);
    expect(files.has("missing.json")).toBe(false);

    // Nothing of anyone else.
    const all = [...files.values()].map((b) => b.toString("latin1")).join("\n");
    expect(all).not.toContain(bystander.word);
    expect(all).not.toContain(bystander.number);

    const [entry] = await query<{ user_id: number; target_id: string }>(
      t,
      sql`select user_id, target_id from audit_log where action = 'contact.dataExported' order by id desc limit 1`,
    );
    expect(entry).toEqual({ user_id: admin.id, target_id: String(person.contactId) });
    expect((await rowsHolding(t, [person.number, person.name])).audit_log).toBeUndefined();
  });

  it("lists a file gone from storage in missing.json, and refuses a group", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const group = { id: `1203630${customerNumber()}`, name: `Grupo ${customerNumber()}` };
    const person = await seedPerson(t, admin, connection, group);
    await t.services.storage.remove(person.mediaPaths[0]);

    const res = await t.app.inject({ method: "GET", url: `/api/contacts/${person.contactId}/data/export`, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    const files = readZip(res.rawPayload);
    const missing = JSON.parse(files.get("missing.json")?.toString() ?? "{}") as { files: string[] };
    expect(missing.files).toHaveLength(1);
    expect(missing.files[0]).toMatch(new RegExp(`^media/\\d+-foto-${person.word}\\.png$`));
    expect(files.has(missing.files[0])).toBe(false);

    const [groupContact] = await query<{ id: number }>(t, sql`select id from contacts where number = ${group.id}`);
    const refused = await t.app.inject({
      method: "GET",
      url: `/api/contacts/${groupContact.id}/data/export`,
      headers: admin.auth,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe("ERR_CONTACT_IS_GROUP");
  });

  it("is in the OpenAPI document, with the erase body and answer", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    expect(doc.paths["/api/contacts/{id}/data/export"].get).toBeDefined();
    expect(doc.paths["/api/contacts/{id}/data/summary"].get.responses["200"]).toBeDefined();
    const erase = doc.paths["/api/contacts/{id}/data/erase"].post;
    expect(JSON.stringify(erase.requestBody)).toContain("confirm");
    expect(JSON.stringify(erase.responses["200"])).toContain("filesNotRemoved");
  });
});
