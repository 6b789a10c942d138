import { AUDIO_MIN_BYTES } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { encodeMp3 } from "./mp3";

function tone(seconds: number, sampleRate: number): Float32Array[] {
  const samples = new Float32Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < samples.length; i++) samples[i] = 0.5 * Math.sin((2 * Math.PI * 440 * i) / sampleRate);
  const chunks: Float32Array[] = [];
  for (let i = 0; i < samples.length; i += 4096) chunks.push(samples.subarray(i, i + 4096));
  return chunks;
}

describe("voice notes are mp3 at 128 kbit/s (spec §9)", () => {
  it("encodes PCM into MPEG audio frames at about 16 kB per second", async () => {
    const blob = encodeMp3(tone(2, 48000), 48000);
    expect(blob.type).toBe("audio/mpeg");
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect(bytes[0]).toBe(0xff);
    expect(bytes[1] & 0xe0).toBe(0xe0);
    // 128 kbit/s for two seconds: 32000 bytes, give or take the encoder's padding frames.
    expect(bytes.length).toBeGreaterThan(30000);
    expect(bytes.length).toBeLessThan(36000);
    // The bitrate index of the frame header: 1001 is 128 kbit/s for MPEG-1 layer III.
    expect(bytes[2] >> 4).toBe(0b1001);
  });

  it("a very short recording stays under the 10000-byte floor, so it is discarded", () => {
    expect(encodeMp3(tone(0.3, 44100), 44100).size).toBeLessThan(AUDIO_MIN_BYTES);
    expect(encodeMp3(tone(1, 44100), 44100).size).toBeGreaterThanOrEqual(AUDIO_MIN_BYTES);
  });
});
