/** Tokens for an image whose size cannot be read (a URL, or bytes in an unknown format): the API's cap. */
export const UNKNOWN_IMAGE_TOKENS = 1600;
/** The messages API scales an image down until its long edge fits this many pixels… */
const MAX_EDGE = 1568;
/** …and its area fits this many (about 1.15 megapixels), then bills one token per 750 pixels. */
const MAX_PIXELS = 1_150_000;
const PIXELS_PER_TOKEN = 750;

/** Width and height read from an image's header bytes (PNG, JPEG, GIF, WebP), or null. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const u16be = (at: number) => (bytes[at] << 8) | bytes[at + 1];
  const u16le = (at: number) => bytes[at] | (bytes[at + 1] << 8);
  const u32be = (at: number) =>
    ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3];
  if (
    bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47
  ) {
    return { width: u32be(16), height: u32be(20) };
  }
  if (bytes.length >= 10 && bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) {
    return { width: u16le(6), height: u16le(8) };
  }
  if (
    bytes.length >= 30 && bytes[0] === 0x52 && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42
  ) {
    const chunk = String.fromCharCode(bytes[12], bytes[13], bytes[14], bytes[15]);
    if (chunk === "VP8X") {
      return {
        width: 1 + (bytes[24] | (bytes[25] << 8) | (bytes[26] << 16)),
        height: 1 + (bytes[27] | (bytes[28] << 8) | (bytes[29] << 16)),
      };
    }
    if (chunk === "VP8 ") return { width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff };
    if (chunk === "VP8L") {
      const b = bytes.subarray(21, 25);
      return {
        width: 1 + (((b[1] & 0x3f) << 8) | b[0]),
        height: 1 + (((b[3] & 0xf) << 10) | (b[2] << 2) | (b[1] >> 6)),
      };
    }
    return null;
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    // JPEG: walk the segments to the first start-of-frame marker, which holds the size.
    let at = 2;
    while (at + 9 < bytes.length) {
      if (bytes[at] !== 0xff) return null;
      const marker = bytes[at + 1];
      const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (sof) return { width: u16be(at + 7), height: u16be(at + 5) };
      at += 2 + u16be(at + 2);
    }
  }
  return null;
}

/** Decodes only the first bytes of base64 data (enough for any header above). */
function headBytes(base64: string, count = 64 * 1024): Uint8Array {
  const chars = Math.min(base64.length, Math.ceil(count / 3) * 4);
  try {
    const binary = atob(base64.slice(0, chars - (chars % 4)));
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return new Uint8Array();
  }
}

/** Tokens of one image as the messages API bills it: its size after scaling, a token per 750 pixels. */
export function imageTokens(base64: string | undefined): number {
  const size = base64 === undefined ? null : imageSize(headBytes(base64));
  if (size === null || size.width <= 0 || size.height <= 0) return UNKNOWN_IMAGE_TOKENS;
  let { width, height } = size;
  const edge = Math.max(width, height);
  if (edge > MAX_EDGE) {
    width = (width * MAX_EDGE) / edge;
    height = (height * MAX_EDGE) / edge;
  }
  if (width * height > MAX_PIXELS) {
    const scale = Math.sqrt(MAX_PIXELS / (width * height));
    width *= scale;
    height *= scale;
  }
  return Math.max(1, Math.ceil((Math.round(width) * Math.round(height)) / PIXELS_PER_TOKEN));
}
