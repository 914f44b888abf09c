// SHA-1 in plain JavaScript, for runtimes without node:crypto (the edge worker). ETags must be
// the same bytes whichever runtime answers, so this is the same digest the server takes from
// node:crypto; SHA-1 here is a content fingerprint, not a security measure.

const encoder = new TextEncoder();

function rotl(x: number, n: number): number {
  return (x << n) | (x >>> (32 - n));
}

/** The 20-byte SHA-1 digest of `input` (a string is hashed as its UTF-8 bytes). */
export function sha1(input: string | Uint8Array): Uint8Array {
  // a plain Uint8Array view (not a Buffer subclass) keeps the element reads monomorphic
  const data = typeof input === 'string' ? encoder.encode(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const length = data.length;
  const fullBlocks = length >>> 6;
  // the last partial block + 0x80 + zero padding + 64-bit big-endian bit length: one or two blocks
  const tail = new Uint8Array(((length & 63) + 9 > 64 ? 2 : 1) * 64);
  tail.set(data.subarray(fullBlocks * 64));
  tail[length & 63] = 0x80;
  const view = new DataView(tail.buffer);
  view.setUint32(tail.length - 8, Math.floor(length / 2 ** 29));
  view.setUint32(tail.length - 4, (length * 8) >>> 0);

  const state = new Int32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);
  const w = new Int32Array(80);
  for (let b = 0; b < fullBlocks; b++) block(state, w, data, b * 64);
  for (let at = 0; at < tail.length; at += 64) block(state, w, tail, at);
  const out = new Uint8Array(20);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 5; i++) outView.setInt32(i * 4, state[i]);
  return out;
}

function block(state: Int32Array, w: Int32Array, src: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++, at += 4) w[i] = (src[at] << 24) | (src[at + 1] << 16) | (src[at + 2] << 8) | src[at + 3];
  for (let i = 16; i < 80; i++) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
  let a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
  let t: number;
  for (let i = 0; i < 20; i++) {
    t = (rotl(a, 5) + ((b & c) | (~b & d)) + e + 0x5a827999 + w[i]) | 0;
    (e = d), (d = c), (c = rotl(b, 30)), (b = a), (a = t);
  }
  for (let i = 20; i < 40; i++) {
    t = (rotl(a, 5) + (b ^ c ^ d) + e + 0x6ed9eba1 + w[i]) | 0;
    (e = d), (d = c), (c = rotl(b, 30)), (b = a), (a = t);
  }
  for (let i = 40; i < 60; i++) {
    t = (rotl(a, 5) + ((b & c) | (b & d) | (c & d)) + e + 0x8f1bbcdc + w[i]) | 0;
    (e = d), (d = c), (c = rotl(b, 30)), (b = a), (a = t);
  }
  for (let i = 60; i < 80; i++) {
    t = (rotl(a, 5) + (b ^ c ^ d) + e + 0xca62c1d6 + w[i]) | 0;
    (e = d), (d = c), (c = rotl(b, 30)), (b = a), (a = t);
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
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
