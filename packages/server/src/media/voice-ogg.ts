/**
 * Ogg/Opus at the packet level, for voice notes shaped like the ones WhatsApp's own apps record:
 * mono, 16 kHz input, SILK wideband frames of 20 ms packed three to a packet (Opus "code 3"),
 * vendor "WhatsApp". libopus (ffmpeg) writes one frame per packet ("code 0"); WhatsApp on iOS
 * refuses to play such a voice note (Baileys PR #2648), so the frames are repacked here.
 */

export interface OggPacket {
  data: Buffer;
  /** Granule position of the page this packet ends on, when it is the last packet finished there. */
  granule?: bigint;
}

export interface OpusStream {
  serial: number;
  head: Buffer;
  tags: Buffer;
  audio: OggPacket[];
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

function oggCrc(page: Buffer): number {
  let crc = 0;
  for (const byte of page) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) & 0xff) ^ byte]) >>> 0;
  return crc;
}

/** The packets of a single-stream Ogg/Opus file; undefined when it is not one. */
export function readOpus(file: Buffer): OpusStream | undefined {
  const packets: OggPacket[] = [];
  let serial = 0;
  let offset = 0;
  let partial: Buffer[] = [];
  while (offset + 27 <= file.length) {
    if (file.toString("latin1", offset, offset + 4) !== "OggS") return undefined;
    const granule = file.readBigInt64LE(offset + 6);
    serial = file.readUInt32LE(offset + 14);
    const segments = file[offset + 26];
    let cursor = offset + 27 + segments;
    let lastFinished: OggPacket | undefined;
    for (let i = 0; i < segments; i++) {
      const size = file[offset + 27 + i];
      partial.push(file.subarray(cursor, cursor + size));
      cursor += size;
      if (size < 255) {
        lastFinished = { data: Buffer.concat(partial) };
        packets.push(lastFinished);
        partial = [];
      }
    }
    if (lastFinished && granule >= 0n) lastFinished.granule = granule;
    offset = cursor;
  }
  const [head, tags, ...audio] = packets;
  if (!head || !tags || head.data.toString("latin1", 0, 8) !== "OpusHead") return undefined;
  return { serial, head: head.data, tags: tags.data, audio };
}

export const channelsOf = (head: Buffer) => head[9];
export const inputRateOf = (head: Buffer) => head.readUInt32LE(12);

/** Samples (at 48 kHz) of one Opus frame, from the TOC byte's configuration (RFC 6716 §3.1). */
function frameSamples(toc: number): number {
  const config = toc >> 3;
  if (config < 12) return [480, 960, 1920, 2880][config % 4];
  if (config < 16) return [480, 960][config % 2];
  return [120, 240, 480, 960][config % 4];
}

export function frameCount(packet: Buffer): number {
  const code = packet[0] & 3;
  if (code === 0) return 1;
  if (code === 3) return packet[1] & 0x3f;
  return 2;
}

export const packetSamples = (packet: Buffer) => frameSamples(packet[0]) * frameCount(packet);
export const tocConfig = (packet: Buffer) => packet[0] >> 3;
export const tocCode = (packet: Buffer) => packet[0] & 3;

/** RFC 6716 §3.2.1: a frame length in one byte below 252, else two. */
function frameLength(length: number): Buffer {
  if (length < 252) return Buffer.from([length]);
  const first = 252 + (length & 3);
  return Buffer.from([first, (length - first) >> 2]);
}

/** One code-3 (VBR) packet from single-frame packets that share a TOC. */
function combine(frames: Buffer[]): Buffer {
  const toc = (frames[0][0] & 0xfc) | 3;
  const bodies = frames.map((f) => f.subarray(1));
  const lengths = bodies.slice(0, -1).map((b) => frameLength(b.length));
  return Buffer.concat([Buffer.from([toc, 0x80 | bodies.length]), ...lengths, ...bodies]);
}

/** Single-frame packets regrouped `perPacket` to a packet, as long as their TOC matches. */
export function repack(audio: Buffer[], perPacket: number): Buffer[] {
  const out: Buffer[] = [];
  let run: Buffer[] = [];
  const flush = () => {
    if (run.length) out.push(combine(run));
    run = [];
  };
  for (const packet of audio) {
    if (tocCode(packet) !== 0) {
      flush();
      out.push(packet);
      continue;
    }
    if (run.length && (run[0][0] !== packet[0] || run.length === perPacket)) flush();
    run.push(packet);
  }
  flush();
  return out;
}

/** OpusTags with only a vendor string, as WhatsApp writes them. */
export function vendorTags(vendor: string): Buffer {
  const name = Buffer.from(vendor, "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32LE(name.length);
  return Buffer.concat([Buffer.from("OpusTags", "latin1"), length, name, Buffer.alloc(4)]);
}

export const vendorOf = (tags: Buffer) => tags.toString("utf8", 12, 12 + tags.readUInt32LE(8));

function page(packet: Buffer, flags: number, granule: bigint, serial: number, sequence: number): Buffer {
  const lacing: number[] = [];
  let rest = packet.length;
  for (; rest >= 255; rest -= 255) lacing.push(255);
  lacing.push(rest);
  const header = Buffer.alloc(27);
  header.write("OggS", 0, "latin1");
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  const built = Buffer.concat([header, Buffer.from(lacing), packet]);
  built.writeUInt32LE(oggCrc(built), 22);
  return built;
}

/** An Ogg/Opus file of these packets, one packet per page; the final granule keeps the original end trimming. */
export function writeOpus(stream: { serial: number; head: Buffer; tags: Buffer }, audio: Buffer[], endGranule?: bigint): Buffer {
  const pages = [page(stream.head, 2, 0n, stream.serial, 0), page(stream.tags, 0, 0n, stream.serial, 1)];
  let granule = 0n;
  audio.forEach((packet, i) => {
    granule += BigInt(packetSamples(packet));
    const last = i === audio.length - 1;
    const at = last && endGranule !== undefined && endGranule <= granule ? endGranule : granule;
    pages.push(page(packet, last ? 4 : 0, at, stream.serial, i + 2));
  });
  return Buffer.concat(pages);
}
