import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, isAbsolute, join, normalize } from "node:path";
import { MEDIA_STATE } from "@zapdesk/core";
import type { Run } from "./context.js";
import { str } from "./convert.js";
import type { Row } from "./source.js";

/** The marker a message keeps when its file was not in the old system's media folder. */
export const IMPORT_MEDIA_MISSING = MEDIA_STATE.notInOldSystem;

/** Copy a message's file into Zapdesk's media storage; a file that cannot be found is reported and marked. */
export async function copyMedia(
  run: Run,
  row: Row,
  sid: string,
): Promise<{ path?: string; name?: string; error?: string } | undefined> {
  const url = str(row.mediaUrl).trim();
  if (!url) return undefined;
  const name = decodeURIComponent(url.split("/").pop() ?? url);
  if (/^https?:\/\//i.test(url)) {
    run.report.media.remote++;
    run.report.adjustments.push({
      entity: "messages",
      sourceId: sid,
      note: `its file is at ${url}, outside the old system's folder: not copied`,
    });
    return { name, error: IMPORT_MEDIA_MISSING };
  }
  const relative = normalize(url.replace(/^\/+/, "").replace(/^public\//, ""));
  if (relative.startsWith("..") || isAbsolute(relative)) {
    run.report.media.missing++;
    skipMedia(run, sid, url);
    return { name, error: IMPORT_MEDIA_MISSING };
  }
  const companyDir = run.company !== undefined ? [`company${run.company}`] : [];
  const candidates: string[] = [];
  for (const dir of run.options.mediaDirs ?? []) {
    candidates.push(join(dir, relative));
    for (const c of companyDir) candidates.push(join(dir, c, relative));
  }
  for (const file of candidates) {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    if (run.options.dryRun || !run.options.storage) {
      run.report.media.copied++;
      run.report.media.bytes += info.size;
      return { name };
    }
    const ext = extname(name).slice(1).toLowerCase() || "bin";
    const stored = await run.options.storage.saveStream(createReadStream(file), ext, {
      maxBytes: run.options.maxMediaBytes ?? 1024 * 1024 * 1024,
    });
    run.report.media.copied++;
    run.report.media.bytes += stored.size;
    return { path: stored.path, name };
  }
  run.report.media.missing++;
  skipMedia(run, sid, url);
  return { name, error: IMPORT_MEDIA_MISSING };
}
function skipMedia(run: Run, sid: string, url: string) {
  run.report.adjustments.push({ entity: "messages", sourceId: sid, note: `file not found in the old system: ${url}` });
}
