// Dist integrity (issue 10.6): the manifest lists the size and SHA-256 of every file the server
// loads, and the per-field offsets are checked against the rows. A dist changed after the build
// — even by the same number of bytes, even with the checksums fixed up to match — is refused by
// name, at start (exit 1) and on reload (the old data keeps answering).
import { COLUMN_FILES } from '../../src/store/format/column-files.ts';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_FIELDS } from '../../src/model/event-fields.ts';
import { loadDataset } from '../../src/query/dataset.ts';
import { startAula } from '../aula-cli.ts';
import { firstPart, refusal, removeDir, request, sampleDist, serve, tempDir } from '../helpers.ts';

/** offsets per row: one per field, then the row's length */
const FIELDS_PLUS_LENGTH = EVENT_FIELDS.length + 1;
const PART = firstPart(sampleDist());
const OFFSETS = `data/events/${PART}.offsets.bin`;

let root: string;
let good: string;
let copies = 0;

beforeAll(() => {
  root = tempDir('aula-integrity-');
  // read only: every change is made to a copy
  good = sampleDist();
});
afterAll(() => removeDir(root));

function copy(): string {
  const dir = join(root, `copy-${copies++}`);
  cpSync(good, dir, { recursive: true });
  return dir;
}

/** Changes the offsets (as u32 values), optionally writing the matching checksum into the manifest. */
function withOffsets(change: (starts: Uint32Array) => void, fixChecksum: boolean): string {
  const dir = copy();
  const path = join(dir, OFFSETS);
  const bytes = readFileSync(path);
  const starts = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  change(starts);
  const changed = Buffer.from(starts.buffer);
  expect(changed.length).toBe(bytes.length);
  expect(changed.equals(bytes)).toBe(false);
  writeFileSync(path, changed);
  if (fixChecksum) {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    manifest.files[OFFSETS].sha256 = createHash('sha256').update(changed).digest('hex');
    manifest.files[OFFSETS].crc32 = (crc32(changed) >>> 0).toString(16).padStart(8, '0');
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  }
  return dir;
}

const swap = (a: number, b: number) => (s: Uint32Array) => void ([s[a], s[b]] = [s[b], s[a]]);
const stride = () => FIELDS_PLUS_LENGTH;

describe('a dist changed after the build is refused', () => {
  it('the build lists size, SHA-256 and CRC-32 of every data and autocomplete file', () => {
    const manifest = JSON.parse(readFileSync(join(good, 'manifest.json'), 'utf8'));
    const listed = Object.keys(manifest.files).sort();
    expect(listed).toEqual(expect.arrayContaining(['data/categories.json', `data/events/${PART}.jsonl`, OFFSETS, ...COLUMN_FILES]));
    expect(listed.some((f) => f.startsWith('autocomplete/'))).toBe(true);
    for (const rel of listed) {
      const bytes = readFileSync(join(good, rel));
      expect(manifest.files[rel]).toEqual({ sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length, crc32: (crc32(bytes) >>> 0).toString(16).padStart(8, '0') });
    }
    expect(() => loadDataset(good)).not.toThrow();
  });

  it('two u32 swapped in a part\'s offsets file (same length) → refused by the checksum, naming the file', () => {
    const dir = withOffsets(swap(5, 6), false);
    const message = refusal(dir);
    expect(message).toContain(join(dir, OFFSETS));
    expect(message).toContain('CRC-32');
  });

  it('… and with the checksum fixed up in the manifest → still refused, by the offsets check', () => {
    const dir = withOffsets(swap(5, 6), true);
    const message = refusal(dir);
    expect(message).toContain(join(dir, OFFSETS));
    expect(message).toMatch(/does not match the event rows in data\/events\/ \(field \w+ of event 0 is not where its offset says\)/);
  });

  it('other hand-made offsets with matching checksums are refused too', () => {
    const cases: [string, (s: Uint32Array) => void][] = [
      ['a field offset moved by one byte', (s) => void (s[3] += 1)],
      ['a field offset set to the next one', (s) => void (s[3] = s[4])],
      ['a field offset of the second row swapped with the first row', (s) => {
        swap(7, stride() + 7)(s);
      }],
      ['the last field moved to the closing brace', (s) => {
        s[stride() - 2] = s[stride() - 1] - 1;
      }],
    ];
    for (const [name, change] of cases) {
      const dir = withOffsets(change, true);
      // a changed value can also land where the value of the row still looks whole, but never at a key
      expect(refusal(dir), name).toContain(join(dir, OFFSETS));
    }
  });

  it('a changed byte inside a JSON string of an event part (same length) → refused, naming the part', () => {
    const dir = copy();
    const path = join(dir, `data/events/${PART}.jsonl`);
    const text = readFileSync(path, 'utf8');
    const at = text.indexOf('"title":"') + 9;
    writeFileSync(path, text.slice(0, at) + (text[at] === 'X' ? 'Y' : 'X') + text.slice(at + 1));
    expect(refusal(dir)).toContain(`${join(dir, `data/events/${PART}.jsonl`)}: does not match its CRC-32 in manifest.json; rebuild with \`aula build\``);
  });

  it('a changed byte inside data/autocomplete.bin (same length) → refused, naming the file', () => {
    const dir = copy();
    const path = join(dir, 'data/autocomplete.bin');
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] ^= 1;
    writeFileSync(path, bytes);
    expect(refusal(dir)).toContain(`${join(dir, 'data/autocomplete.bin')}: does not match its CRC-32 in manifest.json; rebuild with \`aula build\``);
  });

  it('a manifest without checksums (an older aula) → rebuild', () => {
    const dir = copy();
    const { files: _, ...manifest } = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    expect(refusal(dir)).toMatch(/manifest\.json: lists no file checksums .*; rebuild with `aula build`/);
  });

  it('aula serve refuses it at start: one line naming the file, exit 1', async () => {
    const dir = withOffsets(swap(5, 6), true);
    const { code, err } = await startAula(['serve', '--dist', dir, '--port', '0']).exited;
    expect(code).toBe(1);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toContain(`aula: ${join(dir, OFFSETS)}: does not match`);
  });

  it('a reload refuses it and keeps answering from the old data', async () => {
    const dir = copy();
    const running = await serve(dir, { watch: false });
    try {
      const before = await request(`${running.url}/v1/cms/event/?limit=5`);
      expect(before.status).toBe(200);
      const bytes = readFileSync(join(dir, OFFSETS));
      const starts = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      swap(5, 6)(starts);
      writeFileSync(join(dir, OFFSETS), Buffer.from(starts.buffer));
      expect(await running.reload()).toBe(false);
      const after = await request(`${running.url}/v1/cms/event/?limit=5`);
      expect(after.status).toBe(200);
      expect(after.text).toBe(before.text);
    } finally {
      await running.close();
    }
  });
});
