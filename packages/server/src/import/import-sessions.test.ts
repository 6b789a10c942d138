import { makeCacheableSignalKeyStore } from "@whiskeysockets/baileys";
import { describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/harness.js";
import {
  fillSaasSession,
  fillTicketzSession,
  type LinkedAuthState,
  linkedAuthState,
} from "../../test/import-fixtures/sessions.js";
import { mysqlReachable, mysqlSource, pgSource, type SourceDb } from "../../test/import-fixtures/sources.js";
import { count, type Target } from "../../test/import-fixtures/target.js";
import { useDatabaseAuthState } from "../channels/baileys/database-auth-state.js";
import { authRows } from "../modules/connections/channel-store-rows.js";
import { runImport } from "./importer.js";
import { openSource } from "./source.js";

const mysqlUp = await mysqlReachable();

/** The adopted connection's auth state, read as a Baileys connection of ours reads it, equals the old system's. */
async function expectAdopted(target: Target, name: string, auth: LinkedAuthState) {
  const [row] = await target.query<{ id: number; status: string }>("select id, status from whatsapps where name = $1", [name]);
  // Meant to be connected: opened with these credentials at start, no QR.
  expect(row?.status).toBe("OPENING");
  const { state } = await useDatabaseAuthState(authRows(target.db, row?.id as number));
  expect(state.creds.me?.id).toBe(auth.creds.me.id);
  expect(state.creds.registrationId).toBe(auth.creds.registrationId);
  expect(state.creds.advSecretKey).toBe(auth.creds.advSecretKey);
  expect(Buffer.from(state.creds.noiseKey.private).equals(Buffer.from(auth.creds.noiseKey.private))).toBe(true);
  expect(Buffer.from(state.creds.signedIdentityKey.public).equals(Buffer.from(auth.creds.signedIdentityKey.public))).toBe(true);
  expect(Buffer.from(state.creds.signedPreKey.signature).equals(Buffer.from(auth.creds.signedPreKey.signature))).toBe(true);
  // Signal keys through Baileys' own key store, as a socket reads them.
  const keys = makeCacheableSignalKeyStore(state.keys);
  const preKey = (await keys.get("pre-key", ["1"]))["1"];
  expect(Buffer.from(preKey?.private as Uint8Array).equals(Buffer.from(auth.preKey.private))).toBe(true);
  expect(Buffer.from(preKey?.public as Uint8Array).equals(Buffer.from(auth.preKey.public))).toBe(true);
  const sync = (await keys.get("app-state-sync-key", [auth.appStateKeyId]))[auth.appStateKeyId];
  expect(Buffer.from(sync?.keyData as Uint8Array).equals(auth.appStateKey.keyData)).toBe(true);
  expect(sync?.fingerprint?.rawId).toBe(7);
  expect((await keys.get("session", [auth.sessionId]))[auth.sessionId]).toEqual(auth.session);
}

describe("--adopt-sessions", { timeout: 240_000 }, () => {
  it("moves the SaaS baseline's { creds, keys } session into our auth state; a connection never linked is reported", async () => {
    const src = await pgSource("saas.pg.sql");
    const target = await openTestDatabase();
    const source = await openSource(src.url);
    try {
      const auth = linkedAuthState("5511999990001");
      await fillSaasSession(src, auth);
      // A dry run adopts nothing.
      const dry = await runImport({ source, flavour: "saas", database: target, adoptSessions: true, dryRun: true });
      expect(dry.adjustments.some((a) => /linked session adopted/.test(a.note))).toBe(true);
      expect(await count(target, "select count(*) as n from whatsapp_auth")).toBe(0);

      const report = await runImport({ source, flavour: "saas", database: target, adoptSessions: true });
      expect(report.verification.complete).toBe(true);
      expect(report.adjustments.find((a) => a.sourceId === "1")?.note).toMatch(/linked session adopted \(5511999990001:7@/);
      expect(report.adjustments.find((a) => a.sourceId === "2")?.note).toMatch(/not adopted: no linked session/);
      await expectAdopted(target, "Vendas", auth);
      const [never] = await target.query<{ status: string; keys: string }>(
        "select status, (select count(*) from whatsapp_auth where whatsapp_id = w.id) as keys from whatsapps w where name = 'Nunca lida'",
      );
      expect(never).toEqual({ status: "DISCONNECTED", keys: "0" });
    } finally {
      await source.close();
      await src.drop();
      await target.drop();
    }
  });

  it("moves Ticketz's creds and its BaileysKeys rows; without the option nothing is moved", async () => {
    const src = await pgSource("ticketz.pg.sql");
    const plain = await openTestDatabase();
    const target = await openTestDatabase();
    const source = await openSource(src.url);
    try {
      const auth = linkedAuthState("5521988880002");
      await fillTicketzSession(src, auth);
      const without = await runImport({ source, flavour: "ticketz", database: plain });
      expect(await count(plain, "select count(*) as n from whatsapp_auth")).toBe(0);
      expect(await count(plain, "select count(*) as n from whatsapps where status = 'DISCONNECTED'")).toBe(1);
      expect(without.adjustments.find((a) => a.entity === "connections")?.note).toMatch(/link the phone again/);

      const report = await runImport({ source, flavour: "ticketz", database: target, adoptSessions: true });
      expect(report.adjustments.find((a) => a.entity === "connections")?.note).toMatch(
        /adopted \(5521988880002:7@s\.whatsapp\.net, 3 keys\)/,
      );
      await expectAdopted(target, "Principal", auth);
    } finally {
      await source.close();
      await src.drop();
      await plain.drop();
      await target.drop();
    }
  });

  it.skipIf(!mysqlUp)("a whatsapp-web.js flavour always links again, and the report says so", async () => {
    const src: SourceDb = await mysqlSource("community.mysql.sql");
    const target = await openTestDatabase();
    const source = await openSource(src.url);
    try {
      const now = "2024-03-10 09:00:00";
      await src.insert("Whatsapps", [
        { id: 1, name: "Atendimento", status: "CONNECTED", session: "wwebjs", isDefault: 1, createdAt: now, updatedAt: now },
      ]);
      const report = await runImport({ source, flavour: "community", database: target, adoptSessions: true });
      expect(report.adjustments.find((a) => a.entity === "connections")?.note).toMatch(
        /not adopted: a whatsapp-web.js session, which Baileys cannot use: link the phone again/,
      );
      expect(await count(target, "select count(*) as n from whatsapp_auth")).toBe(0);
    } finally {
      await source.close();
      await src.drop();
      await target.drop();
    }
  });
});
