import { describe, expect, it } from "vitest";
import { callLine } from "./inbound-calls.js";
import { CLOUD_CAPTION_MAX, CLOUD_TEXT_MAX, cloudParts, splitText } from "./outbound-split.js";

describe("splitting a message for the Cloud API's limits", () => {
  it("leaves what fits alone", () => {
    expect(splitText("oi", 10)).toEqual(["oi"]);
    expect(cloudParts("x".repeat(CLOUD_TEXT_MAX), false)).toHaveLength(1);
    expect(cloudParts("x".repeat(CLOUD_CAPTION_MAX), true)).toHaveLength(1);
  });

  it("cuts between paragraphs, else lines, else words, never leaving a part over the limit", () => {
    expect(splitText("aaaa bbbb\n\ncccc dddd", 12)).toEqual(["aaaa bbbb", "cccc dddd"]);
    expect(splitText("aaaa bbbb\ncccc dddd", 12)).toEqual(["aaaa bbbb", "cccc dddd"]);
    expect(splitText("aaaa bbbb cccc dddd", 12)).toEqual(["aaaa bbbb", "cccc dddd"]);
    const long = Array.from({ length: 3000 }, (_, i) => `word${i}`).join(" ");
    const parts = splitText(long, CLOUD_TEXT_MAX);
    expect(parts.every((p) => p.length <= CLOUD_TEXT_MAX)).toBe(true);
    expect(parts.join(" ")).toBe(long);
  });

  it("cuts hard where there is no break, but never inside an emoji", () => {
    expect(splitText("x".repeat(25), 10)).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
    const emoji = `${"x".repeat(9)}😀yy`;
    expect(splitText(emoji, 10)).toEqual(["x".repeat(9), "😀yy"]);
  });

  it("a caption over 1,024 keeps its first part with the media, the rest follows as text", () => {
    const caption = `${"a".repeat(1000)}\n${"b".repeat(2000)}`;
    expect(cloudParts(caption, true)).toEqual(["a".repeat(1000), "b".repeat(2000)]);
    const huge = `${"c".repeat(1000)} ${"d ".repeat(3000)}`.trim();
    const parts = cloudParts(huge, true);
    expect(parts[0].startsWith("c".repeat(1000))).toBe(true);
    expect(parts[0].length).toBeLessThanOrEqual(CLOUD_CAPTION_MAX);
    expect(parts.slice(1).every((p) => p.length <= CLOUD_TEXT_MAX)).toBe(true);
    expect(parts).toHaveLength(3);
    expect(parts.join(" ")).toBe(huge);
  });
});

describe("a call's line in the ticket", () => {
  const call = { callId: "c", from: "5511", isGroup: false, isVideo: false, timestamp: new Date() };
  it("says ringing, missed or answered with its length", () => {
    expect(callLine(call)).toBe("Chamada de voz recebida");
    expect(callLine({ ...call, isVideo: true })).toBe("Chamada de vídeo recebida");
    expect(callLine({ ...call, ended: { answered: false } })).toBe("Chamada de voz perdida");
    expect(callLine({ ...call, ended: { answered: true, durationSeconds: 65 } })).toBe("Chamada de voz atendida (1:05)");
  });
});
