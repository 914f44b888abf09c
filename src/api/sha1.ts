// SHA-1 in plain JavaScript, for runtimes without node:crypto (the edge worker). ETags must be
// the same bytes whichever runtime answers, so this is the same digest the server takes from
// node:crypto; SHA-1 here is a content fingerprint, not a security measure.

const encoder = new TextEncoder();

function rotl(x: number, n: number): number {
  return (x << n) | (x >>> (32 - n));
}

/** The 20-byte SHA-1 digest of `input` (a string is hashed as its UTF-8 bytes). */
export function sha1(input: string | Uint8Array): Uint8Array {
  const data = typeof input === 'string' ? encoder.encode(input) : input;
  const length = data.length;
  // message + 0x80 + zero padding + 64-bit big-endian bit length, to a multiple of 64 bytes
  const blocks = Math.ceil((length + 9) / 64);
  const tail = new Uint8Array(blocks * 64 - Math.floor(length / 64) * 64);
  const fullBlocks = Math.floor(length / 64);
  tail.set(data.subarray(fullBlocks * 64));
  tail[length - fullBlocks * 64] = 0x80;
  const view = new DataView(tail.buffer);
  const bits = length * 8;
  view.setUint32(tail.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(tail.length - 4, bits >>> 0);

  let h0 = 0x67452301, h1 = 0xefcdab89, h2 = 0x98badcfe, h3 = 0x10325476, h4 = 0xc3d2e1f0;
  const w = new Int32Array(80);
  for (let b = 0; b < blocks; b++) {
    const src = b < fullBlocks ? data : tail;
    let at = b < fullBlocks ? b * 64 : (b - fullBlocks) * 64;
    for (let i = 0; i < 16; i++, at += 4) w[i] = (src[at] << 24) | (src[at + 1] << 16) | (src[at + 2] << 8) | src[at + 3];
    for (let i = 16; i < 80; i++) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    let a = h0, b2 = h1, c = h2, d = h3, e = h4;
    for (let i = 0; i < 80; i++) {
      const f = i < 20 ? (b2 & c) | (~b2 & d) : i < 40 || i >= 60 ? b2 ^ c ^ d : (b2 & c) | (b2 & d) | (c & d);
      const k = i < 20 ? 0x5a827999 : i < 40 ? 0x6ed9eba1 : i < 60 ? 0x8f1bbcdc : 0xca62c1d6;
      const t = (rotl(a, 5) + f + e + k + w[i]) | 0;
      e = d;
      d = c;
      c = rotl(b2, 30);
      b2 = a;
      a = t;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b2) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  const out = new Uint8Array(20);
  const outView = new DataView(out.buffer);
  [h0, h1, h2, h3, h4].forEach((h, i) => outView.setInt32(i * 4, h));
  return out;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Unpadded base64url, as node's `digest('base64url')` writes it. */
export function base64url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2;
    for (let c = 0; c < chars; c++) out += BASE64URL[(n >>> (18 - 6 * c)) & 63];
  }
  return out;
}
