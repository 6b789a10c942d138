import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeContact, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  agent = await makeUser(t);
});
afterAll(() => t.close());

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, who?: { auth: { authorization: string } }, payload?: object) =>
  t.app.inject({ method, url, headers: who?.auth, payload });

/** A number no other test uses: 55 + 11 random digits. */
const freshNumber = () =>
  `55${String(Number.parseInt(randomBytes(5).toString("hex"), 16))
    .padStart(11, "0")
    .slice(0, 11)}`;

describe("POST /api/contacts", () => {
  it("creates a contact with a digits-only number and its extra info", async () => {
    const digits = freshNumber();
    const typed = `+${digits.slice(0, 2)} (${digits.slice(2, 4)}) ${digits.slice(4, 9)}-${digits.slice(9)}`;
    const res = await call("POST", "/api/contacts", agent, {
      name: "Maria Souza",
      number: typed,
      email: "Maria@Example.COM",
      extraInfo: [{ name: "CPF", value: "123" }],
    });
    expect(res.statusCode).toBe(200);
    const contact = res.json();
    expect(contact).toMatchObject({
      name: "Maria Souza",
      number: digits,
      email: "maria@example.com",
      isGroup: false,
      profilePicUrl: "",
      extraInfo: [{ id: expect.any(Number), name: "CPF", value: "123" }],
    });
    const stored = await call("GET", `/api/contacts/${contact.id}`, agent);
    expect(stored.json()).toEqual(contact);
  });

  it("validates with field paths", async () => {
    const res = await call("POST", "/api/contacts", agent, { name: "M", number: "12-34", email: "nope" });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(
      expect.arrayContaining([
        { path: ["name"], message: "Too Short!" },
        { path: ["number"], message: "Too Short!" },
        { path: ["email"], message: "Invalid email" },
      ]),
    );
    const letters = await call("POST", "/api/contacts", agent, { name: "Letters", number: "55abc1234567" });
    expect(letters.json().details).toEqual([{ path: ["number"], message: "Invalid number" }]);
    const extra = await call("POST", "/api/contacts", agent, {
      name: "Extra",
      number: freshNumber(),
      extraInfo: [{ name: "", value: "x" }],
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().details[0].path).toEqual(["extraInfo", 0, "name"]);
    const hugeId = await call("PUT", `/api/contacts/${(await makeContact(t, { number: freshNumber() })).id}`, agent, {
      extraInfo: [{ id: 1e12, name: "n", value: "v" }],
    });
    expect(hugeId.statusCode).toBe(400);
    expect(hugeId.json().details[0].path).toEqual(["extraInfo", 0, "id"]);
    const missing = await call("POST", "/api/contacts", agent, {});
    expect(
      missing
        .json()
        .details.map((d: { path: string[] }) => d.path[0])
        .sort(),
    ).toEqual(["name", "number"]);
  });

  it("answers ERR_DUPLICATED_CONTACT for a number already saved, however it is typed", async () => {
    const existing = await makeContact(t, { number: freshNumber() });
    const spaced = existing.number.replace(/(\d{2})(\d{2})/, "+$1 $2 ");
    const res = await call("POST", "/api/contacts", agent, { name: "Copy", number: spaced });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe("ERR_DUPLICATED_CONTACT");
  });

  it("needs a session", async () => {
    expect((await call("POST", "/api/contacts", undefined, { name: "Anon", number: freshNumber() })).statusCode).toBe(401);
  });
});

describe("GET /api/contacts", () => {
  it("searches name and number and pages by 20 with count and hasMore", async () => {
    const tag = `Zq${randomBytes(3).toString("hex")}`;
    for (let i = 0; i < 21; i++) await makeContact(t, { name: `${tag} ${String(i).padStart(2, "0")}`, number: freshNumber() });
    const byNumber = await makeContact(t, { name: "Number Match", number: freshNumber() });

    const first = await call("GET", `/api/contacts?searchParam=${tag.toLowerCase()}`, agent);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ count: 21, hasMore: true });
    expect(first.json().contacts).toHaveLength(20);
    expect(first.json().contacts[0].name).toBe(`${tag} 00`);
    const second = await call("GET", `/api/contacts?searchParam=${tag}&pageNumber=2`, agent);
    expect(second.json()).toMatchObject({ count: 21, hasMore: false });
    expect(second.json().contacts.map((c: { name: string }) => c.name)).toEqual([`${tag} 20`]);

    const numbers = await call("GET", `/api/contacts?searchParam=${byNumber.number.slice(2)}`, agent);
    expect(numbers.json().contacts.map((c: { id: number }) => c.id)).toEqual([byNumber.id]);
  });

  it("validates the query and needs a session", async () => {
    const bad = await call("GET", "/api/contacts?pageNumber=abc", agent);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toEqual(["pageNumber"]);
    expect((await call("GET", "/api/contacts")).statusCode).toBe(401);
  });
});

describe("GET /api/contacts/:id", () => {
  it("answers ERR_NO_CONTACT_FOUND for an unknown id and 400 for a bad one", async () => {
    const missing = await call("GET", "/api/contacts/999999", agent);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe("ERR_NO_CONTACT_FOUND");
    expect((await call("GET", "/api/contacts/-1", agent)).statusCode).toBe(400);
    expect((await call("GET", "/api/contacts/1")).statusCode).toBe(401);
  });
});

describe("PUT /api/contacts/:id", () => {
  // Who may edit (agents only through an active ticket, numbers admin-only): contacts-access.test.ts.
  it("adds, updates and removes extra info in one save", async () => {
    const created = (
      await call("POST", "/api/contacts", agent, {
        name: "Extra Info",
        number: freshNumber(),
        extraInfo: [
          { name: "keep", value: "old" },
          { name: "drop", value: "bye" },
        ],
      })
    ).json();
    const [keep, drop] = created.extraInfo;
    const res = await call("PUT", `/api/contacts/${created.id}`, admin, {
      name: "Extra Info 2",
      extraInfo: [
        { id: keep.id, name: "keep", value: "new" },
        { name: "added", value: "hello" },
      ],
    });
    expect(res.statusCode).toBe(200);
    const info = res.json().extraInfo;
    expect(info).toHaveLength(2);
    expect(info).toContainEqual({ id: keep.id, name: "keep", value: "new" });
    expect(info).toContainEqual({ id: expect.any(Number), name: "added", value: "hello" });
    expect(info.map((i: { id: number }) => i.id)).not.toContain(drop.id);
    expect(res.json().name).toBe("Extra Info 2");

    // Leaving extraInfo out keeps it; an empty list clears it.
    const untouched = await call("PUT", `/api/contacts/${created.id}`, admin, { email: "x@y.zz" });
    expect(untouched.json().extraInfo).toHaveLength(2);
    const cleared = await call("PUT", `/api/contacts/${created.id}`, admin, { extraInfo: [] });
    expect(cleared.json().extraInfo).toEqual([]);
  });

  it("never writes into another contact's extra info through a foreign id", async () => {
    const owner = (
      await call("POST", "/api/contacts", agent, {
        name: "Owner",
        number: freshNumber(),
        extraInfo: [{ name: "secret", value: "mine" }],
      })
    ).json();
    const other = await makeContact(t, { number: freshNumber() });
    const res = await call("PUT", `/api/contacts/${other.id}`, admin, {
      extraInfo: [{ id: owner.extraInfo[0].id, name: "secret", value: "stolen" }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().extraInfo[0].id).not.toBe(owner.extraInfo[0].id);
    const ownerNow = (await call("GET", `/api/contacts/${owner.id}`, agent)).json();
    expect(ownerNow.extraInfo).toEqual([{ id: owner.extraInfo[0].id, name: "secret", value: "mine" }]);
  });

  it("normalises a new number and refuses one another contact has", async () => {
    const contact = await makeContact(t, { number: freshNumber() });
    const other = await makeContact(t, { number: freshNumber() });
    const digits = freshNumber();
    const ok = await call("PUT", `/api/contacts/${contact.id}`, admin, { number: `+${digits}` });
    expect(ok.json().number).toBe(digits);
    // Its own number is not a clash.
    expect((await call("PUT", `/api/contacts/${contact.id}`, admin, { number: digits })).statusCode).toBe(200);
    const clash = await call("PUT", `/api/contacts/${contact.id}`, admin, { number: other.number });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toBe("ERR_DUPLICATED_CONTACT");
  });

  it("answers ERR_NO_CONTACT_FOUND, validates, and needs a session", async () => {
    const missing = await call("PUT", "/api/contacts/999999", agent, { name: "Ghost" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe("ERR_NO_CONTACT_FOUND");
    const contact = await makeContact(t, { number: freshNumber() });
    const invalid = await call("PUT", `/api/contacts/${contact.id}`, agent, { name: "", number: "1" });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().details).toEqual([
      { path: ["name"], message: "Required" },
      { path: ["number"], message: "Too Short!" },
    ]);
    expect((await call("PUT", `/api/contacts/${contact.id}`, undefined, { name: "Anon" })).statusCode).toBe(401);
  });
});

describe("DELETE /api/contacts/:id", () => {
  it("is admin-only and removes the contact with its extra info", async () => {
    const created = (
      await call("POST", "/api/contacts", agent, {
        name: "To Delete",
        number: freshNumber(),
        extraInfo: [{ name: "a", value: "b" }],
      })
    ).json();
    const forbidden = await call("DELETE", `/api/contacts/${created.id}`, agent);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe("ERR_NO_PERMISSION");
    expect((await call("DELETE", `/api/contacts/${created.id}`)).statusCode).toBe(401);
    const res = await call("DELETE", `/api/contacts/${created.id}`, admin);
    expect(res.statusCode).toBe(200);
    expect((await call("GET", `/api/contacts/${created.id}`, admin)).json().error).toBe("ERR_NO_CONTACT_FOUND");
    const orphans = await t.database.query("select id from contact_extra_info where contact_id = $1", [created.id]);
    expect(orphans).toEqual([]);
    const again = await call("DELETE", `/api/contacts/${created.id}`, admin);
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe("ERR_NO_CONTACT_FOUND");
  });
});
