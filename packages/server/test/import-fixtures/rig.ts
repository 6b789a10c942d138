import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { openSource, type Source } from "../../src/import/source.js";
import { openTestDatabase } from "../harness.js";
import type { SourceDb } from "./sources.js";
import type { Target } from "./target.js";

/** What an import test works on, set before its first test. */
export interface ImportRig<E> {
  src: SourceDb;
  target: Target;
  source: Source;
  /** The old backend's media folder the fill wrote into (`--media`). */
  media: string;
  /** The folder of Zapdesk's own media storage. */
  storageDir: string;
  expected: E;
}

/**
 * For a describe block: a source database filled by `fill` (with its media folder), a fresh target
 * database (`prepare` may put rows in it first), the source opened as the importer reads it; all of
 * it dropped and removed after the block.
 */
export function useImportRig<E>(
  openSrc: () => Promise<SourceDb>,
  fill: (src: SourceDb, media: string) => Promise<E>,
  prepare?: (target: Target) => Promise<void>,
): ImportRig<E> {
  const rig = {} as ImportRig<E>;
  beforeAll(async () => {
    rig.src = await openSrc();
    rig.media = await mkdtemp(join(tmpdir(), "whaticket-public-"));
    rig.storageDir = await mkdtemp(join(tmpdir(), "zapdesk-media-"));
    rig.expected = await fill(rig.src, rig.media);
    rig.target = await openTestDatabase();
    await prepare?.(rig.target);
    rig.source = await openSource(rig.src.url);
  }, 180_000);
  afterAll(async () => {
    await rig.source?.close();
    await rig.src?.drop();
    await rig.target?.drop();
    if (rig.media) await rm(rig.media, { recursive: true, force: true });
    if (rig.storageDir) await rm(rig.storageDir, { recursive: true, force: true });
  });
  return rig;
}
