// A zip writer for the Train view's upload, store-only (photos are compressed already): per entry a local
// header and the bytes, then the central directory and its end record, each entry with its CRC-32, as
// the server's zip reader checks them (no ZIP64: at most 65,535 entries and 4 GB).

/** CRC-32 (zip's, polynomial 0xEDB88320) by table. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 of `bytes` (a Uint8Array). */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const DOS_DATE = (1 << 5) | 1; // 1980-01-01: the entries carry no time
const UTF8_NAMES = 0x0800; // general purpose flag bit 11: names are UTF-8

/** A header of `size` bytes written by `fill(view)`, little-endian. */
function header(size, fill) {
  const view = new DataView(new ArrayBuffer(size));
  fill(view);
  return view;
}

/** A zip Blob (application/zip) of `entries`, each `{ name, bytes }` (a path with "/" and a Uint8Array), stored. */
export function zipStore(entries) {
  if (entries.length > 0xffff) throw new Error(`a zip holds at most 65535 entries here, not ${entries.length}`);
  const encoder = new TextEncoder();
  const parts = [], directory = [];
  let offset = 0;
  for (const { name, bytes } of entries) {
    const nameBytes = encoder.encode(name);
    const crc = crc32(bytes);
    if (offset + 30 + nameBytes.length + bytes.length > 0xfffffffe) throw new Error("the zip would pass 4 GB");
    parts.push(header(30, (v) => {
      v.setUint32(0, 0x04034b50, true); v.setUint16(4, 20, true); v.setUint16(6, UTF8_NAMES, true);
      v.setUint16(8, 0, true); v.setUint16(10, 0, true); v.setUint16(12, DOS_DATE, true); v.setUint32(14, crc, true);
      v.setUint32(18, bytes.length, true); v.setUint32(22, bytes.length, true); v.setUint16(26, nameBytes.length, true);
      v.setUint16(28, 0, true);
    }), nameBytes, bytes);
    const at = offset;
    directory.push(header(46, (v) => {
      v.setUint32(0, 0x02014b50, true); v.setUint16(4, 20, true); v.setUint16(6, 20, true); v.setUint16(8, UTF8_NAMES, true);
      v.setUint16(10, 0, true); v.setUint16(12, 0, true); v.setUint16(14, DOS_DATE, true); v.setUint32(16, crc, true);
      v.setUint32(20, bytes.length, true); v.setUint32(24, bytes.length, true); v.setUint16(28, nameBytes.length, true);
      // extra, comment, disk, internal and external attributes: 0
      v.setUint32(42, at, true);
    }), nameBytes);
    offset += 30 + nameBytes.length + bytes.length;
  }
  const directorySize = directory.reduce((sum, part) => sum + part.byteLength, 0);
  const end = header(22, (v) => {
    v.setUint32(0, 0x06054b50, true); v.setUint16(8, entries.length, true); v.setUint16(10, entries.length, true);
    v.setUint32(12, directorySize, true); v.setUint32(16, offset, true);
  });
  return new Blob([...parts, ...directory, end], { type: "application/zip" });
}
