import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BLOCKED_FILE_BYTES, crc32Hasher, crc32Hex, digestOf, DIST_FORMAT, parseManifest } from './manifest.ts';

const manifestWith = (digest: object) =>
  JSON.stringify({
    format: DIST_FORMAT, version: '0.1.0', built_at: '2025-01-01T00:00:00.000Z', base_url: 'https://example.org/x',
    site: { timezone: 'Europe/Vienna', page_size: 20, max_page_size: 1000 },
    counts: { events: 0, pages: 0, categories: 0, media: 0, directory: 0, event_list_pages: 1 },
    event_parts: [{ name: '0', rows: 0 }], event_list: { first: 'v1/cms/event/index.json', further: 'v1/cms/event/{offset}.json', limit: 20 },
    files: { 'data/x.bin': digest },
  });

describe('a file digest’s CRC-32', () => {
  const bytes = new TextEncoder().encode('aula\n'.repeat(1000));

  it('is zlib’s, in 8 hex digits, the same whole or chunk by chunk', () => {
    const hex = (crc32(bytes) >>> 0).toString(16).padStart(8, '0');
    expect(digestOf(bytes).crc32).toBe(hex);
    expect(crc32Hex!(bytes)).toBe(hex);
    const hasher = crc32Hasher()!;
    for (let at = 0; at < bytes.length; at += 777) hasher.update(bytes.subarray(at, at + 777));
    expect(hasher.hex()).toBe(hex);
    // a leading zero digit is kept
    expect(crc32Hex!(new TextEncoder().encode('a'.repeat(3)))).toMatch(/^[0-9a-f]{8}$/);
  });

  it('is optional in a manifest (an older dist lists none), and refused when malformed', () => {
    const { crc32: listed, ...older } = digestOf(bytes);
    expect(parseManifest(manifestWith({ ...older, crc32: listed }), 'manifest.json').files['data/x.bin'].crc32).toBe(listed);
    expect(parseManifest(manifestWith(older), 'manifest.json').files['data/x.bin'].crc32).toBeUndefined();
    for (const bad of [listed!.slice(1), listed!.toUpperCase().replace(/^[0-9]*/, 'A'), 123, `${listed!.slice(1)}!`]) {
      expect(() => parseManifest(manifestWith({ ...older, crc32: bad }), 'manifest.json')).toThrow('the checksum entry of data/x.bin is malformed');
    }
  });
});

describe('a large file’s block sums in a manifest', () => {
  it('are taken as listed, and refused when malformed', () => {
    const digest = digestOf(new Uint8Array(BLOCKED_FILE_BYTES + 5).map((_, i) => i * 31));
    const blocks = digest.blocks!;
    expect(parseManifest(manifestWith(digest), 'manifest.json').files['data/x.bin'].blocks).toBe(blocks);
    for (const bad of [blocks.slice(2), `${blocks.slice(1)}!`]) {
      expect(() => parseManifest(manifestWith({ ...digest, blocks: bad }), 'manifest.json')).toThrow('the checksum entry of data/x.bin is malformed');
    }
  });
});
