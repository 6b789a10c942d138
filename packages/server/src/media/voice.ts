import { spawn } from "node:child_process";
import { channelsOf, inputRateOf, readOpus, repack, tocCode, vendorTags, writeOpus } from "./voice-ogg.js";

const FFMPEG_TIMEOUT_MS = 30_000;
/** WhatsApp's apps record voice notes at 16 kHz (SILK wideband); 48 kHz ones fail on iOS. */
export const VOICE_SAMPLE_RATE = 16_000;
/** Low enough that libopus keeps speech in SILK mode, as the apps' recordings are. */
const VOICE_BITRATE = "16k";
/** Three 20 ms frames per packet: the packing of the apps' own voice notes. */
const FRAMES_PER_PACKET = 3;
/** Bars of the waveform WhatsApp draws in a voice-note bubble. */
const WAVEFORM_BARS = 64;

const ffmpegPath = () => process.env.FFMPEG_PATH ?? "ffmpeg";

function runFfmpeg(args: string[], input: Buffer, binary: string): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (value: Buffer | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const child = spawn(binary, ["-hide_banner", "-loglevel", "error", "-i", "pipe:0", ...args, "pipe:1"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      done(undefined);
    }, FFMPEG_TIMEOUT_MS);
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", () => done(undefined));
    child.on("close", (code) => done(code === 0 && chunks.length ? Buffer.concat(chunks) : undefined));
    child.stdin.on("error", () => done(undefined));
    child.stdin.end(input);
  });
}

/** Whether the bytes already are a voice note as WhatsApp's apps make them (then nothing is re-encoded). */
export function isWhatsAppVoiceNote(data: Buffer): boolean {
  const stream = readOpus(data);
  if (!stream || channelsOf(stream.head) !== 1 || inputRateOf(stream.head) !== VOICE_SAMPLE_RATE) return false;
  return stream.audio.length > 0 && stream.audio.every((p) => tocCode(p.data) === 3);
}

/**
 * Any recorded audio as a WhatsApp voice note: Ogg/Opus, mono, 16 kHz, speech mode, frames packed
 * three per packet, vendor "WhatsApp". Converted with Debian's ffmpeg; without it (or for bytes
 * that are not audio) undefined, and the audio is sent as recorded (delivered, shown as a file).
 */
export async function toOggOpus(input: Buffer, binary = ffmpegPath()): Promise<Buffer | undefined> {
  const encoded = await runFfmpeg(
    [
      "-vn",
      "-map_metadata",
      "-1",
      "-ac",
      "1",
      "-ar",
      String(VOICE_SAMPLE_RATE),
      "-c:a",
      "libopus",
      "-application",
      "voip",
      "-b:a",
      VOICE_BITRATE,
      "-frame_duration",
      "20",
      "-f",
      "ogg",
    ],
    input,
    binary,
  );
  const stream = encoded ? readOpus(encoded) : undefined;
  if (!stream || stream.audio.length === 0) return undefined;
  const packets = repack(
    stream.audio.map((p) => p.data),
    FRAMES_PER_PACKET,
  );
  return writeOpus({ ...stream, tags: vendorTags("WhatsApp") }, packets, stream.audio.at(-1)?.granule);
}

/** Length in seconds, from the last granule position less the encoder's pre-skip (no decoding). */
export function voiceSeconds(data: Buffer): number | undefined {
  const stream = readOpus(data);
  const granule = stream?.audio.findLast((p) => p.granule !== undefined)?.granule;
  if (!stream || granule === undefined) return undefined;
  const preSkip = stream.head.readUInt16LE(10);
  return Math.max(1, Math.round(Number(granule - BigInt(preSkip)) / 48_000));
}

/**
 * The 64 bars (0-100) of a voice-note bubble, from the decoded loudness. Baileys would need the
 * optional `audio-decode` package for this; ffmpeg is already here.
 */
export async function voiceWaveform(data: Buffer, binary = ffmpegPath()): Promise<Uint8Array | undefined> {
  const pcm = await runFfmpeg(["-ac", "1", "-ar", "8000", "-f", "s16le"], data, binary);
  if (!pcm || pcm.length < WAVEFORM_BARS * 2) return undefined;
  const samples = Math.floor(pcm.length / 2);
  const block = Math.floor(samples / WAVEFORM_BARS);
  const levels: number[] = [];
  for (let bar = 0; bar < WAVEFORM_BARS; bar++) {
    let sum = 0;
    for (let i = bar * block; i < (bar + 1) * block; i++) sum += Math.abs(pcm.readInt16LE(i * 2));
    levels.push(sum / block);
  }
  const peak = Math.max(...levels) || 1;
  return Uint8Array.from(levels.map((level) => Math.round((level / peak) * 100)));
}
