import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { readZip } from "../../test/zip-reader.js";
import { type ZipEntry, zipStream } from "./zip-stream.js";

async function collect(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>): Promise<Buffer> {
  // Not stream/consumers' buffer(): it makes a Blob part of every chunk, seconds for 70,000 entries.
  const chunks: Buffer[] = [];
  for await (const chunk of zipStream(entries)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Info-ZIP's own test of the archive, when the machine has it (Debian's `unzip`). */
async function unzipTest(archive: Buffer): Promise<string | undefined> {
  const dir = await mkdtemp(join(tmpdir(), "zapdesk-zip-"));
  try {
    const file = join(dir, "a.zip");
    await writeFile(file, archive);
    const { stdout } = await promisify(execFile)("unzip", ["-tq", file], { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("zipStream", () => {
  it("writes compressed, stored and streamed entries that read back byte for byte", async () => {
    const binary = randomBytes(200_000);
    async function* slowly() {
      for (let i = 0; i < 5; i++) yield Buffer.from(`part ${i} ação; `.repeat(1000));
    }
    const archive = await collect([
      { name: "README.txt", data: "olá\n", compress: true },
      { name: "media/1-foto ção.png", data: binary },
      { name: "data.json", data: slowly(), compress: true },
      { name: "empty.txt", data: "" },
    ]);
    const files = readZip(archive);
    expect([...files.keys()]).toEqual(["README.txt", "media/1-foto ção.png", "data.json", "empty.txt"]);
    expect(files.get("README.txt")?.toString()).toBe("olá\n");
    expect(files.get("media/1-foto ção.png")?.equals(binary)).toBe(true);
    expect(files.get("data.json")?.toString()).toBe(
      Array.from({ length: 5 }, (_, i) => `part ${i} ação; `.repeat(1000)).join(""),
    );
    expect(files.get("empty.txt")?.length).toBe(0);
    // The JSON was deflated: the archive is much smaller than what it holds.
    expect(archive.length).toBeLessThan(binary.length + 20_000);
    const tested = await unzipTest(archive);
    if (tested !== undefined) expect(tested).toContain("No errors detected");
  });

  it("switches to zip64 records past 65,535 entries", async () => {
    function* many() {
      for (let i = 0; i < 70_000; i++) yield { name: `f/${i}.txt`, data: String(i) };
    }
    const archive = await collect(many());
    expect(archive.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    const files = readZip(archive);
    expect(files.size).toBe(70_000);
    expect(files.get("f/69999.txt")?.toString()).toBe("69999");
    const tested = await unzipTest(archive);
    if (tested !== undefined) expect(tested).toContain("No errors detected");
  });

  it("fails, instead of ending a truncated archive, when an entry's source fails", async () => {
    async function* broken() {
      yield Buffer.from("start");
      throw new Error("storage went away");
    }
    await expect(collect([{ name: "a.bin", data: broken() }])).rejects.toThrow("storage went away");
    await expect(collect([{ name: "a.json", data: broken(), compress: true }])).rejects.toThrow("storage went away");
  });
});
