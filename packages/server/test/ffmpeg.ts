import { spawnSync } from "node:child_process";

/**
 * Voice-note tests need Debian's ffmpeg. On a fresh developer machine without it they are
 * skipped (so `npm test` passes there); CI installs it and sets CI, where a missing ffmpeg fails.
 */
export const ffmpegAvailable = spawnSync("ffmpeg", ["-version"]).status === 0;
export const skipWithoutFfmpeg = !ffmpegAvailable && !process.env.CI;
