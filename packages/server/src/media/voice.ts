import { spawn } from "node:child_process";

const FFMPEG_TIMEOUT_MS = 30_000;

/**
 * WhatsApp plays voice notes as Ogg/Opus; browsers record other formats (the web
 * sends mp3). Converted with Debian's ffmpeg when present; without it the audio is
 * sent as recorded (still delivered, shown as an audio file rather than a voice note).
 */
export function toOggOpus(input: Buffer, ffmpegPath = process.env.FFMPEG_PATH ?? "ffmpeg"): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (value: Buffer | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const child = spawn(
      ffmpegPath,
      [
        "-hide_banner",
        "-loglevel",
        "error",
        "-i",
        "pipe:0",
        "-vn",
        "-c:a",
        "libopus",
        "-b:a",
        "48k",
        "-ac",
        "1",
        "-f",
        "ogg",
        "pipe:1",
      ],
      {
        stdio: ["pipe", "pipe", "ignore"],
      },
    );
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
