import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { sniff } from "./sniff.js";
import { toOggOpus } from "./voice.js";

const hasFfmpeg = spawnSync("ffmpeg", ["-version"]).status === 0;

function mp3Tone(): Buffer {
  const result = spawnSync(
    "ffmpeg",
    [
      "-hide_banner",
      "-loglevel",
      "error",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:duration=1",
      "-b:a",
      "128k",
      "-f",
      "mp3",
      "pipe:1",
    ],
    { maxBuffer: 10 * 1024 * 1024 },
  );
  return result.stdout;
}

describe("voice notes", () => {
  it.skipIf(!hasFfmpeg)("converts a recorded mp3 to Ogg/Opus, which WhatsApp plays as a voice note", async () => {
    const mp3 = mp3Tone();
    expect(sniff(mp3).mime).toBe("audio/mpeg");
    const ogg = await toOggOpus(mp3);
    expect(ogg).toBeDefined();
    expect(sniff(ogg!).mime).toBe("audio/ogg");
    expect(ogg!.subarray(0, 200).toString("latin1")).toContain("OpusHead");
  });

  it("gives up cleanly on bytes that are not audio, or without ffmpeg", async () => {
    expect(await toOggOpus(Buffer.from("not audio at all"))).toBeUndefined();
    expect(await toOggOpus(Buffer.from("x"), "/nonexistent/ffmpeg")).toBeUndefined();
  });
});

describe("type sniffing", () => {
  it("trusts bytes, not claims", () => {
    expect(sniff(Buffer.from("<html><script>x</script></html>"), "image/png").mime).toBe("application/octet-stream");
    expect(sniff(Buffer.from("<svg onload=alert(1)>"), "text/plain").mime).toBe("application/octet-stream");
    expect(sniff(Buffer.from("plain words"), "text/plain").mime).toBe("text/plain");
    expect(sniff(Buffer.from("%PDF-1.7 ..."), "application/x-evil").mime).toBe("application/pdf");
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), "text/html").mime).toBe("image/jpeg");
  });
});
