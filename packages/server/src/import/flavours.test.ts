import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgSource, type SourceDb } from "../../test/import-fixtures/sources.js";
import { detectFlavour } from "./flavours.js";
import { openSource, type Source } from "./source.js";

/** The tell-tale SequelizeMeta names of each flavour (migration-sources.md §4.0), as `.js` file names. */
const COMMUNITY = [
  "20200717133438-create-users",
  "20200717144403-create-contacts",
  "20210818102605-create-quickAnswers",
  "20220223095932-add-whatsapp-to-user",
];
const SAAS = [
  "20200717133438-create-users",
  "20210109192514-create-companies-table",
  "20230603212335-create-QueueIntegrations",
  "20231220192536-add-unique-constraint-to-tickets-table",
];
const TICKETZ = [
  ...SAAS.slice(0, 2),
  "20240620080700-create-baileysKeys",
  "20250612092900-create-whatsapp-lid-maps",
  "20250513082600-create-counters",
];
const MULTIFLOW = [
  ...SAAS,
  "20230901101300-create-CompaniesSettings",
  "20250115000000-add-lid-to-contacts",
  "20250612092900-create-whatsapp-lid-maps",
];
const PRESS = [...COMMUNITY, "20250627000000-create-activity-logs", "20250925001000-create-message-reactions"];

describe("flavour detection from SequelizeMeta", () => {
  let src: SourceDb;
  let source: Source;
  beforeAll(async () => {
    src = await pgSource("sequelize-meta.pg.sql");
    source = await openSource(src.url);
  });
  afterAll(async () => {
    await source?.close();
    await src?.drop();
  });
  const detect = async (names: string[]) => {
    await src.run(`delete from "SequelizeMeta"`);
    for (const name of names) await src.run(`insert into "SequelizeMeta" ("name") values (?)`, [`${name}.js`]);
    return detectFlavour(source);
  };

  it.each([
    ["community", COMMUNITY],
    ["saas", SAAS],
    ["ticketz", TICKETZ],
    ["multiflow", MULTIFLOW],
    ["press", PRESS],
  ])("recognises %s", async (flavour, names) => {
    expect((await detect(names)).flavour).toBe(flavour);
  });

  it("refuses, with what it found, a Community newer than the last release, a SaaS derivative it does not know, and no Whaticket at all", async () => {
    const newer = await detect([...COMMUNITY, "20230101000000-add-something-new"]);
    expect(newer.flavour).toBeUndefined();
    expect(newer.found).toMatch(/newer than the last known release \(5 migrations, the last 20230101000000-add-something-new\)/);
    const derivative = await detect([...SAAS.slice(0, 2), "20250612092900-create-whatsapp-lid-maps"]);
    expect(derivative.flavour).toBeUndefined();
    expect(derivative.found).toMatch(/matches no known flavour/);
    const unknown = await detect(["20240101000000-create-anything"]);
    expect(unknown.flavour).toBeUndefined();
    expect(unknown.found).toMatch(/unknown Sequelize schema/);
    await src.run(`drop table "SequelizeMeta"`);
    expect((await detectFlavour(source)).found).toMatch(/no SequelizeMeta table/);
  });
});
