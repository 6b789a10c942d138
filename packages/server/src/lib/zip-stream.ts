import { pipeline, Readable } from "node:stream";
import { crc32, createDeflateRaw } from "node:zlib";

/**
 * A zip archive written as a stream: each entry's bytes pass through once (never held whole), with
 * its CRC and sizes in a data descriptor after it and in the central directory at the end. Zip64
 * records appear where an offset, a size or the entry count outgrows the classic fields, so an
 * archive of any size opens in the tools people have (Windows Explorer, macOS, unzip, 7-Zip).
 */
export interface ZipEntry {
  /** The path inside the archive ("/" separated, UTF-8). */
  name: string;
  data: AsyncIterable<Uint8Array | string> | Uint8Array | string;
  /** Deflate (text, JSON); media is already compressed and is stored as it is. */
  compress?: boolean;
}

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
/** Data descriptor follows (bit 3), names are UTF-8 (bit 11). */
const FLAGS = 0x0808;

interface Written {
  name: Buffer;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

function dosDateTime(date: Date): { time: number; day: number } {
  const year = Math.max(1980, date.getUTCFullYear());
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    day: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

function localHeader(name: Buffer, method: number, stamp: { time: number; day: number }): Buffer {
  const head = Buffer.alloc(30);
  head.writeUInt32LE(0x04034b50, 0);
  head.writeUInt16LE(45, 4);
  head.writeUInt16LE(FLAGS, 6);
  head.writeUInt16LE(method, 8);
  head.writeUInt16LE(stamp.time, 10);
  head.writeUInt16LE(stamp.day, 12);
  // CRC and sizes (14–25) are zero: they follow the data, in the descriptor.
  head.writeUInt16LE(name.length, 26);
  head.writeUInt16LE(0, 28);
  return Buffer.concat([head, name]);
}

function descriptor(entry: Written): Buffer {
  const wide = entry.size >= MAX32 || entry.compressed >= MAX32;
  const out = Buffer.alloc(wide ? 24 : 16);
  out.writeUInt32LE(0x08074b50, 0);
  out.writeUInt32LE(entry.crc, 4);
  if (wide) {
    out.writeBigUInt64LE(BigInt(entry.compressed), 8);
    out.writeBigUInt64LE(BigInt(entry.size), 16);
  } else {
    out.writeUInt32LE(entry.compressed, 8);
    out.writeUInt32LE(entry.size, 12);
  }
  return out;
}

function centralRecord(entry: Written, stamp: { time: number; day: number }): Buffer {
  const wide: bigint[] = [];
  if (entry.size >= MAX32) wide.push(BigInt(entry.size));
  if (entry.compressed >= MAX32) wide.push(BigInt(entry.compressed));
  if (entry.offset >= MAX32) wide.push(BigInt(entry.offset));
  const extra = Buffer.alloc(wide.length ? 4 + 8 * wide.length : 0);
  if (wide.length) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(8 * wide.length, 2);
    for (const [i, value] of wide.entries()) extra.writeBigUInt64LE(value, 4 + 8 * i);
  }
  const head = Buffer.alloc(46);
  head.writeUInt32LE(0x02014b50, 0);
  head.writeUInt16LE((3 << 8) | 45, 4); // made by: Unix, zip 4.5
  head.writeUInt16LE(45, 6);
  head.writeUInt16LE(FLAGS, 8);
  head.writeUInt16LE(entry.method, 10);
  head.writeUInt16LE(stamp.time, 12);
  head.writeUInt16LE(stamp.day, 14);
  head.writeUInt32LE(entry.crc, 16);
  head.writeUInt32LE(Math.min(entry.compressed, MAX32), 20);
  head.writeUInt32LE(Math.min(entry.size, MAX32), 24);
  head.writeUInt16LE(entry.name.length, 28);
  head.writeUInt16LE(extra.length, 30);
  // comment length, disk, internal attributes: zero
  head.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
  head.writeUInt32LE(Math.min(entry.offset, MAX32), 42);
  return Buffer.concat([head, entry.name, extra]);
}

function endRecords(count: number, size: number, offset: number): Buffer {
  const parts: Buffer[] = [];
  if (count >= MAX16 || size >= MAX32 || offset >= MAX32) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE((3 << 8) | 45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(size), 40);
    record.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + size), 8);
    locator.writeUInt32LE(1, 16);
    parts.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, MAX16), 8);
  end.writeUInt16LE(Math.min(count, MAX16), 10);
  end.writeUInt32LE(Math.min(size, MAX32), 12);
  end.writeUInt32LE(Math.min(offset, MAX32), 16);
  parts.push(end);
  return Buffer.concat(parts);
}

async function* chunksOf(data: ZipEntry["data"]): AsyncGenerator<Buffer> {
  if (typeof data === "string") yield Buffer.from(data);
  else if (data instanceof Uint8Array) yield Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  else {
    for await (const chunk of data) {
      if (typeof chunk === "string") yield Buffer.from(chunk);
      else yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
  }
}

/** The archive's bytes, entry after entry as the consumer takes them (a slow download slows the reading). */
export async function* zipStream(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  now = new Date(),
): AsyncGenerator<Buffer> {
  const stamp = dosDateTime(now);
  const written: Written[] = [];
  let offset = 0;
  for await (const entry of entries) {
    const name = Buffer.from(entry.name.replace(/^\/+/, ""));
    const method = entry.compress ? 8 : 0;
    const record: Written = { name, method, crc: 0, compressed: 0, size: 0, offset };
    const header = localHeader(name, method, stamp);
    yield header;
    offset += header.length;
    const whole =
      typeof entry.data === "string"
        ? Buffer.from(entry.data)
        : entry.data instanceof Uint8Array
          ? Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength)
          : undefined;
    if (whole && !entry.compress) {
      // Bytes at hand (a small text): no stream machinery for them.
      Object.assign(record, { crc: crc32(whole), size: whole.length, compressed: whole.length });
      if (whole.length) yield whole;
      offset += whole.length;
      const tail = descriptor(record);
      yield tail;
      offset += tail.length;
      written.push(record);
      continue;
    }
    async function* counted() {
      for await (const chunk of chunksOf(entry.data)) {
        record.crc = crc32(chunk, record.crc);
        record.size += chunk.length;
        yield chunk;
      }
    }
    const body: AsyncIterable<Buffer> = entry.compress
      ? pipeline(Readable.from(counted()), createDeflateRaw(), () => {})
      : counted();
    for await (const chunk of body) {
      record.compressed += chunk.length;
      offset += chunk.length;
      yield chunk;
    }
    const tail = descriptor(record);
    yield tail;
    offset += tail.length;
    written.push(record);
  }
  const start = offset;
  let size = 0;
  for (const record of written) {
    const central = centralRecord(record, stamp);
    size += central.length;
    yield central;
  }
  yield endRecords(written.length, size, start);
}
