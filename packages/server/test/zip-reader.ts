import { crc32, inflateRawSync } from "node:zlib";

/**
 * Reads a whole zip archive the way desktop tools do (from the central directory at its end),
 * checking every entry's CRC: a test's independent view of what `lib/zip-stream.ts` wrote.
 */
export function readZip(archive: Buffer): Map<string, Buffer> {
  let end = archive.length - 22;
  while (end >= 0 && archive.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error("not a zip archive: no end of central directory");
  let count = archive.readUInt16LE(end + 10);
  let cdOffset = archive.readUInt32LE(end + 16);
  const locator = end - 20;
  if (locator >= 0 && archive.readUInt32LE(locator) === 0x07064b50) {
    const record = Number(archive.readBigUInt64LE(locator + 8));
    if (archive.readUInt32LE(record) !== 0x06064b50) throw new Error("zip64 end record missing");
    count = Number(archive.readBigUInt64LE(record + 32));
    cdOffset = Number(archive.readBigUInt64LE(record + 48));
  }
  const files = new Map<string, Buffer>();
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error(`central directory entry ${i} is damaged`);
    const method = archive.readUInt16LE(at + 10);
    const crc = archive.readUInt32LE(at + 16);
    let compressed = archive.readUInt32LE(at + 20);
    let size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    let offset = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const extra = archive.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    for (let e = 0; e + 4 <= extra.length; ) {
      const id = extra.readUInt16LE(e);
      const length = extra.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let field = e + 4;
        const next = () => {
          const value = Number(extra.readBigUInt64LE(field));
          field += 8;
          return value;
        };
        if (size === 0xffffffff) size = next();
        if (compressed === 0xffffffff) compressed = next();
        if (offset === 0xffffffff) offset = next();
      }
      e += 4 + length;
    }
    if (archive.readUInt32LE(offset) !== 0x04034b50) throw new Error(`${name}: local header missing`);
    const start = offset + 30 + archive.readUInt16LE(offset + 26) + archive.readUInt16LE(offset + 28);
    const raw = archive.subarray(start, start + compressed);
    const data = method === 8 ? inflateRawSync(raw) : method === 0 ? Buffer.from(raw) : undefined;
    if (!data) throw new Error(`${name}: compression method ${method} unknown`);
    if (data.length !== size) throw new Error(`${name}: ${data.length} bytes, the directory says ${size}`);
    if (crc32(data) !== crc) throw new Error(`${name}: CRC mismatch`);
    if (files.has(name)) throw new Error(`${name} appears twice`);
    files.set(name, data);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
