import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { startZapdesk } from "../../../test/zapdesk-process.js";
import { DataDirInUseError, pgdataOf, startEmbeddedPostgres } from "./embedded-postgres.js";
import { holderFile, isAlive, postmasterPidOf } from "./holder.js";
import { isRoot } from "./identity.js";
import { parentOf } from "./orphan.js";

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-engine-"));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function childrenOf(pid: number): number[] {
  return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((n) => n > 0);
}

const gone = (pid: number) =>
  vi.waitFor(() => expect(isAlive(pid), `pid ${pid} still alive`).toBe(false), { timeout: 60_000, interval: 100 });

describe("the embedded PostgreSQL of `npm start`", () => {
  const dataDir = folder();

  it("refuses a second start on the same DATA_DIR, naming the holder; a kill -9 of Zapdesk stops its postmaster", async () => {
    const first = await startZapdesk({ DATA_DIR: dataDir });
    await first.healthy();
    const postmaster = postmasterPidOf(pgdataOf(dataDir))!;
    expect(isAlive(postmaster)).toBe(true);

    const second = await startZapdesk({ DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`is in use by Zapdesk pid ${first.child.pid}, HTTP port ${first.port}`);
    expect(second.output()).toContain(`PostgreSQL pid ${postmaster}`);
    // The first one never noticed.
    expect((await fetch(`${first.origin}/api/health`)).status).toBe(200);

    first.child.kill("SIGKILL");
    await first.exited;
    // The guardian saw its pipe close and shut the postmaster down: no orphan keeps the folder.
    await gone(postmaster);
  }, 180_000);

  it("stops a postmaster orphaned by a kill -9 of Zapdesk and its guardian, then starts; SIGTERM stops both cleanly", async () => {
    const crashed = await startZapdesk({ DATA_DIR: dataDir });
    await crashed.healthy();
    const orphan = postmasterPidOf(pgdataOf(dataDir))!;
    const guardian = parentOf(orphan)!;
    expect(guardian).not.toBe(crashed.child.pid);
    // The guardian and its pipe watcher die with Zapdesk (the whole group killed): nobody is left to stop the postmaster.
    for (const pid of childrenOf(guardian)) if (pid !== orphan) process.kill(pid, "SIGKILL");
    process.kill(guardian, "SIGKILL");
    crashed.child.kill("SIGKILL");
    await crashed.exited;
    await new Promise((r) => setTimeout(r, 500));
    expect(isAlive(orphan), "the orphaned postmaster keeps running until someone stops it").toBe(true);

    const next = await startZapdesk({ DATA_DIR: dataDir });
    await next.healthy();
    expect(next.output()).toContain(
      `stopping the embedded PostgreSQL (pid ${orphan}) left running by Zapdesk pid ${crashed.child.pid}`,
    );
    expect(isAlive(orphan)).toBe(false);

    const postmaster = postmasterPidOf(pgdataOf(dataDir))!;
    next.child.kill("SIGTERM");
    expect(await next.exited).toBe(0);
    expect(isAlive(postmaster)).toBe(false);
    expect(existsSync(holderFile(dataDir))).toBe(false);
  }, 180_000);

  it("refuses a folder whose OS lock another process holds (a second container on the same volume)", async () => {
    const dir = folder();
    const holder = spawn("flock", [join(dir, "postgres.lock"), "sleep", "120"], { stdio: "ignore", detached: true });
    await vi.waitFor(() => expect(existsSync(join(dir, "postgres.lock"))).toBe(true));
    try {
      await expect(startEmbeddedPostgres({ dataDir: dir })).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      // flock and the sleep that inherited the lock.
      process.kill(-holder.pid!, "SIGKILL");
    }
    // Once the holder is gone the folder is free.
    await vi.waitFor(() => expect(holder.exitCode ?? holder.signalCode).not.toBeNull());
    const server = await startEmbeddedPostgres({ dataDir: dir });
    await server.stop();
  }, 120_000);

  it("sizes its buffers to the memory it is given, the settings it is handed and ALTER SYSTEM's winning", async () => {
    const dataDir = folder();
    const server = await startEmbeddedPostgres({ dataDir, memoryBytes: 2 * 1024 ** 3, settings: { work_mem: "8MB" } });
    try {
      const client = new pg.Client(server.connection.url);
      await client.connect();
      const shown = async (name: string) =>
        (await client.query<{ value: string }>("select current_setting($1) as value", [name])).rows[0]!.value;
      const settings = {
        shared_buffers: await shown("shared_buffers"),
        effective_cache_size: await shown("effective_cache_size"),
        maintenance_work_mem: await shown("maintenance_work_mem"),
        work_mem: await shown("work_mem"),
      };
      // An administrator's ALTER SYSTEM wins too, once the server restarts.
      await client.query("alter system set shared_buffers = '200MB'");
      await client.end();
      expect(settings).toEqual({
        shared_buffers: "512MB",
        effective_cache_size: "1GB",
        maintenance_work_mem: "64MB",
        work_mem: "8MB",
      });
    } finally {
      await server.stop();
    }
    const again = await startEmbeddedPostgres({ dataDir, memoryBytes: 2 * 1024 ** 3 });
    try {
      const client = new pg.Client(again.connection.url);
      await client.connect();
      const { rows } = await client.query<{ buffers: string; cache: string }>(
        "select current_setting('shared_buffers') as buffers, current_setting('effective_cache_size') as cache",
      );
      await client.end();
      expect(rows[0]).toEqual({ buffers: "200MB", cache: "1GB" });
    } finally {
      await again.stop();
    }
  }, 120_000);

  it.runIf(isRoot())(
    "as root where user namespaces are refused: runs as the postgres system user",
    async () => {
      const dir = folder();
      const server = await startEmbeddedPostgres({ dataDir: dir, runAs: "system-user" }).catch((error: Error) => error);
      if (server instanceof Error) {
        // The binaries under a private folder (/root): the error says so and what to do.
        expect(server.message).toMatch(/cannot run .*postgres.*Install Zapdesk in a folder others can read/s);
        return;
      }
      try {
        const owner = statSync(server.pgdata).uid;
        expect(owner).not.toBe(0);
        const client = new pg.Client(server.connection.url);
        await client.connect();
        const { rows } = await client.query<{ user: string }>("select current_user as user");
        await client.end();
        expect(rows[0]!.user).toBe("postgres");
      } finally {
        await server.stop();
      }
    },
    120_000,
  );
});
