import { Mp3Encoder } from "@breezystack/lamejs";

/** Spec §9: voice notes are mp3 at 128 kbit/s. */
export const MP3_KBPS = 128;
const BLOCK = 1152;

export function floatTo16Bit(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}

/** Mono PCM chunks to one mp3 file, encoded in the browser. */
export function encodeMp3(chunks: Float32Array[], sampleRate: number): Blob {
  const encoder = new Mp3Encoder(1, sampleRate, MP3_KBPS);
  const parts: Uint8Array[] = [];
  for (const chunk of chunks) {
    const pcm = floatTo16Bit(chunk);
    for (let i = 0; i < pcm.length; i += BLOCK) {
      const encoded = encoder.encodeBuffer(pcm.subarray(i, i + BLOCK));
      if (encoded.length) parts.push(new Uint8Array(encoded));
    }
  }
  const tail = encoder.flush();
  if (tail.length) parts.push(new Uint8Array(tail));
  return new Blob(parts as BlobPart[], { type: "audio/mpeg" });
}
