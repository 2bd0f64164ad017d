/** CRC-32 (IEEE 802.3 / gzip polynomial), the checksum the AWS event-stream framing uses twice per message. */

let table: Uint32Array | undefined;

// Built on first use rather than at import: nothing runs at import time.
function crcTable(): Uint32Array {
  if (table) return table;
  const built = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    built[n] = c >>> 0;
  }
  return table = built;
}

/** The CRC-32 of `bytes[start, end)`, continuing from `seed` (the CRC of the bytes before). */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length, seed = 0): number {
  const t = crcTable();
  let crc = (seed ^ 0xffffffff) >>> 0;
  for (let i = start; i < end; i++) crc = t[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
