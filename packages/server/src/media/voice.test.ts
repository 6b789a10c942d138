import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { sniff } from "./sniff.js";
import { isWhatsAppVoiceNote, toOggOpus, voiceSeconds, voiceWaveform } from "./voice.js";
import { channelsOf, frameCount, inputRateOf, readOpus, tocCode, tocConfig, vendorOf } from "./voice-ogg.js";

const hasFfmpeg = spawnSync("ffmpeg", ["-version"]).status === 0;

function ffmpeg(args: string[], input?: Buffer) {
  return spawnSync("ffmpeg", ["-hide_banner", "-loglevel", "error", ...args], { input, maxBuffer: 20 * 1024 * 1024 });
}

/** Two seconds of a voice-like signal (a tone over noise), recorded as a browser or phone would hand it over. */
const recorded = (format: string[]) =>
  ffmpeg([
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=220:duration=2",
    "-f",
    "lavfi",
    "-i",
    "anoisesrc=d=2:c=pink:a=0.2",
    "-filter_complex",
    "amix=inputs=2",
    ...format,
    "pipe:1",
  ]).stdout;

describe.skipIf(!hasFfmpeg)("voice notes as WhatsApp's apps record them", () => {
  it("an mp3 becomes mono 16 kHz speech Opus, three 20 ms frames per packet, vendor WhatsApp", async () => {
    const mp3 = recorded(["-b:a", "128k", "-f", "mp3"]);
    expect(sniff(mp3).mime).toBe("audio/mpeg");
    const ogg = (await toOggOpus(mp3))!;
    expect(sniff(ogg).mime).toBe("audio/ogg");
    const stream = readOpus(ogg)!;
    expect(channelsOf(stream.head)).toBe(1);
    expect(inputRateOf(stream.head)).toBe(16_000);
    expect(vendorOf(stream.tags)).toBe("WhatsApp");
    const packets = stream.audio.map((p) => p.data);
    // SILK wideband, 20 ms (config 9), packed "code 3" three frames at a time (the last may hold fewer).
    expect(new Set(packets.map(tocConfig))).toEqual(new Set([9]));
    expect(new Set(packets.map(tocCode))).toEqual(new Set([3]));
    expect(packets.slice(0, -1).every((p) => frameCount(p) === 3)).toBe(true);
    expect(isWhatsAppVoiceNote(ogg)).toBe(true);
    expect(voiceSeconds(ogg)).toBe(2);

    // A standard decoder reads every page (CRCs, granules, frame lengths) without complaint.
    const decoded = ffmpeg(["-i", "pipe:0", "-f", "s16le", "-ac", "1", "-ar", "16000", "pipe:1"], ogg);
    expect(decoded.stderr.toString()).toBe("");
    expect(decoded.stdout.length / 2 / 16_000).toBeCloseTo(2, 1);
  });

  it("an Ogg/Opus from a browser (48 kHz, one frame per packet) is not yet a WhatsApp voice note", () => {
    const browser = recorded(["-c:a", "libopus", "-b:a", "48k", "-f", "ogg"]);
    expect(readOpus(browser)).toBeDefined();
    expect(isWhatsAppVoiceNote(browser)).toBe(false);
  });

  it("the waveform has 64 bars from 0 to 100", async () => {
    const ogg = (await toOggOpus(recorded(["-f", "wav"])))!;
    const waveform = (await voiceWaveform(ogg))!;
    expect(waveform).toHaveLength(64);
    expect(Math.max(...waveform)).toBe(100);
    expect(Math.min(...waveform)).toBeGreaterThanOrEqual(0);
  });
});

describe("voice notes without a usable input", () => {
  it("gives up cleanly on bytes that are not audio, or without ffmpeg", async () => {
    expect(await toOggOpus(Buffer.from("not audio at all"))).toBeUndefined();
    expect(await toOggOpus(Buffer.from("x"), "/nonexistent/ffmpeg")).toBeUndefined();
    expect(isWhatsAppVoiceNote(Buffer.from("OggS but not really"))).toBe(false);
    expect(await voiceWaveform(Buffer.from("x"), "/nonexistent/ffmpeg")).toBeUndefined();
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
