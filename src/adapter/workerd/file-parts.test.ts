// A large data file read in parts (the edge's): only the sections an answer reads are taken in,
// each block checked against its own SHA-256 first; a block that fails its sum is refused and none
// of its bytes is read.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { BLOCK_BYTES, BLOCK_SUM_BYTES, BLOCKED_FILE_BYTES, blockCount, digestOf, sha256Hex, sumsOfBlocks, type FileDigest } from '../../store/format/manifest.ts';
import { FileNeeded } from '../../store/read/per-need.ts';
import { readTextColumn } from '../../store/read/text-column.ts';
import { readInParts } from '../../store/read/sections.ts';
import { HEADER_BYTES, SECTION_ENTRY_BYTES } from '../../store/format/sections.ts';
import { TEXT_SECTION } from '../../store/format/text-column-file.ts';
import { buildTextColumn, textColumnFile } from '../../store/write/text-column.ts';
import { BlockMismatch, FileParts, parsePartKey } from './file-parts.ts';
import { decodeIndex } from '../../store/format/autocomplete-index.ts';
import { readAutocompleteFile } from '../../store/read/autocomplete-file.ts';
import { autocompleteFile } from '../../store/write/autocomplete-file.ts';
import { buildIndexJson } from '../../store/write/index-builder.ts';
import { prefixCodes } from '../../query/autocomplete/prefix-codes.ts';
import { prefixTops } from '../../query/autocomplete/prefix-tops.ts';
import { autocompleteOf } from '../../query/autocomplete/searcher.ts';
import { syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';

/** A text column of `rows` long values (a few hundred KB: several blocks). */
function bigColumn(rows: number): { values: string[]; file: Uint8Array } {
  const values = Array.from({ length: rows }, (_, i) => `Fortbildung ${i} – Straße ${'x'.repeat(i % 300)} Ärzte ${i * 7919}`);
  return { values, file: textColumnFile(buildTextColumn(values, { folded: true, trigramBudget: () => 1 << 20 })) };
}

/**
 * `read()` run again after each round of blocks it needs is taken from `file`, as the edge runs an
 * answer: what it gave, and the blocks taken.
 */
async function inParts<T>(parts: FileParts, file: Uint8Array, read: () => T, sabotage?: (blocks: Uint8Array, first: number) => void): Promise<{ value: T; taken: number[] }> {
  const taken: number[] = [];
  for (let round = 0; round < 100; round++) {
    try {
      return { value: read(), taken };
    } catch (e) {
      if (!(e instanceof FileNeeded)) throw e;
      for (const key of e.rels) {
        const { first, last } = parsePartKey(key)!;
        const [start, end] = parts.range(first, last);
        const body = file.slice(start, end);
        sabotage?.(body, first);
        await parts.take(first, last, body, sumsOfBlocks(file));
        for (let b = first; b <= last; b++) taken.push(b);
      }
    }
  }
  throw new Error('kept needing blocks');
}

const fault = (problem: string) => new Error(problem);

/** The digest of `file` with its blocks' sums' SHA-256 (a file this small lists none in a manifest). */
const blocked = (file: Uint8Array) => ({ ...digestOf(file), blocks: sha256Hex(sumsOfBlocks(file)) });

describe('a file read in parts', () => {
  it('takes in the blocks of the sections read, and the strings read decode as the file read whole gives them', async () => {
    const { values, file } = bigColumn(4000);
    const digest = blocked(file);
    expect(blockCount(file.byteLength)).toBeGreaterThan(4);
    const parts = new FileParts('data/columns/teaser.text.bin', digest);
    const { value: column, taken } = await inParts(parts, file, () => readTextColumn(parts.bytes, values.length, fault));
    // the values' and the folded values' texts are not read yet: their blocks not all taken
    const whole = readTextColumn(file, values.length);
    expect(taken.length).toBeLessThan(blockCount(file.byteLength));
    // a string asked for: its text section's blocks taken, and the very string read whole
    const { value: one } = await inParts(parts, file, () => column.values.at(1234));
    expect(one).toBe(whole.values.at(1234));
    expect(one).toBe(values[1234]);
    const { value: folded } = await inParts(parts, file, () => column.folded!.at(77));
    expect(folded).toBe(whole.folded!.at(77));
  });

  it("a word lookup reads none of the bytes of the row map and the orders; each is read when first used, as the file read whole gives it, and found damaged then (read whole per need too)", async () => {
    const rows = 3000;
    const values = Array.from({ length: rows }, (_, i) => `Kurs ${i} über Herz ${'y'.repeat(i % 40)} Zahl${i % 97}`);
    const file = textColumnFile(buildTextColumn(values, { folded: true, trigramBudget: () => 1 << 20 }), 0);
    const section = (i: number): [number, number] => {
      const view = new DataView(file.buffer, file.byteOffset + HEADER_BYTES + i * SECTION_ENTRY_BYTES, SECTION_ENTRY_BYTES);
      return [view.getUint32(0, true), view.getUint32(0, true) + view.getUint32(4, true)];
    };
    const later = [TEXT_SECTION.rowValue, TEXT_SECTION.byValue, TEXT_SECTION.byFolded].map(section);
    const read = (bytes: Uint8Array) => {
      const asked: [number, number][] = [];
      const standIn = readInParts(new Uint8Array(bytes.byteLength), { need: (ranges) => void asked.push(...ranges.map(([a, b]) => [a, b] as [number, number])), at: (a, b) => bytes.subarray(a, b) });
      return { column: readTextColumn(standIn, rows, fault), asked };
    };
    const touches = (asked: [number, number][], [start, end]: [number, number]) => asked.some(([a, b]) => a < end && b > start);
    const { column, asked } = read(file);
    expect(column.words).not.toBeNull();
    const words = column.words!;
    const found = Array.from({ length: words.words.length }, (_, w) => w).filter((w) => words.words.at(w).includes('herz'));
    expect(found.length).toBeGreaterThan(0);
    words.need(found.map((w) => [words.starts[w], words.starts[w + 1]] as const));
    for (const range of later) expect(touches(asked, range)).toBe(false);
    // read when first used: each asked for then, and as the file read whole has it
    const whole = readTextColumn(file, rows);
    expect([...column.rowValue]).toEqual([...whole.rowValue]);
    expect(touches(asked, later[0])).toBe(true);
    expect([...column.byValue]).toEqual([...whole.byValue]);
    expect([...column.byFolded!]).toEqual([...whole.byFolded!]);
    expect(column.at(17)).toBe(values[17]);
    for (const range of later) expect(touches(asked, range)).toBe(true);
    // a value order that names a value the column does not have: refused when first read, by the fault
    const damaged = file.slice();
    new DataView(damaged.buffer, section(TEXT_SECTION.byValue)[0], 4).setUint32(0, rows * 10, true);
    const { column: bad } = read(damaged);
    expect(() => bad.byValue).toThrow('a text column file whose value order point outside it');
    // read whole per need (a smaller file of an edge isolate): the same, when first read
    const wholeBad = readTextColumn(damaged, rows, fault);
    expect(wholeBad.values.at(3)).toBe(values[3]);
    expect(() => wholeBad.byValue).toThrow('a text column file whose value order point outside it');
    // read whole (the server), at load
    expect(() => readTextColumn(damaged, rows)).toThrow('a text column file whose value order point outside it');
  });

  it('refuses a block that fails its checksum, and reads none of it', async () => {
    const { values, file } = bigColumn(4000);
    const digest = blocked(file);
    const parts = new FileParts('data/columns/teaser.text.bin', digest);
    // the first block arrives with one bit flipped
    const flip = (body: Uint8Array, first: number) => {
      if (first === 0) body[100] ^= 1;
    };
    await expect(inParts(parts, file, () => readTextColumn(parts.bytes, values.length, fault), flip)).rejects.toThrow(new BlockMismatch('block 0 does not match its listed SHA-256'));
    // nothing of it was taken: a read still asks for it
    expect(() => readTextColumn(parts.bytes, values.length, fault)).toThrow(FileNeeded);
    // a body of another length than the blocks' is refused too
    await expect(parts.take(0, 0, file.slice(0, BLOCK_BYTES - 1), sumsOfBlocks(file))).rejects.toThrow(BlockMismatch);
    // the right bytes are taken, and read
    const { value } = await inParts(parts, file, () => readTextColumn(parts.bytes, values.length, fault).values.at(3999));
    expect(value).toBe(values[3999]);
  });

  it('gives a range as the file holds it, from one run or from runs taken in different rounds (joined)', async () => {
    const { file } = bigColumn(4000);
    const parts = new FileParts('data/x.bin', blocked(file));
    await parts.take(2, 2, file.slice(2 * BLOCK_BYTES, 3 * BLOCK_BYTES), sumsOfBlocks(file));
    await parts.take(0, 0, file.slice(0, BLOCK_BYTES), sumsOfBlocks(file));
    // blocks taken again (another origin's answer, a round under way)
    await parts.take(0, 0, file.slice(0, BLOCK_BYTES), sumsOfBlocks(file));
    await parts.take(1, 1, file.slice(BLOCK_BYTES, 2 * BLOCK_BYTES), sumsOfBlocks(file));
    // every block in, in three runs: a range across them is joined from them when read
    parts.need([[0, 3 * BLOCK_BYTES]]);
    expect(Buffer.from(parts.at(100, BLOCK_BYTES - 3)).equals(Buffer.from(file.subarray(100, BLOCK_BYTES - 3)))).toBe(true);
    expect(Buffer.from(parts.at(BLOCK_BYTES - 7, 3 * BLOCK_BYTES - 1)).equals(Buffer.from(file.subarray(BLOCK_BYTES - 7, 3 * BLOCK_BYTES - 1)))).toBe(true);
    expect(Buffer.from(parts.at(5, 2 * BLOCK_BYTES + 9)).equals(Buffer.from(file.subarray(5, 2 * BLOCK_BYTES + 9)))).toBe(true);
    expect(() => parts.at(3 * BLOCK_BYTES, 3 * BLOCK_BYTES + 1)).toThrow(/before they are in/);
  });

  it('takes a range not wholly in as one run: the blocks not in fetched into it, those in copied, so it is read without a join', async () => {
    const { file } = bigColumn(4000);
    const parts = new FileParts('data/x.bin', blocked(file));
    await parts.take(0, 0, file.slice(0, BLOCK_BYTES), sumsOfBlocks(file));
    await parts.take(4, 4, file.slice(4 * BLOCK_BYTES, 5 * BLOCK_BYTES), sumsOfBlocks(file));
    // the range's blocks, those in with them; ranges a block or two apart as one run
    expect(() => parts.need([[BLOCK_BYTES - 5, BLOCK_BYTES + 5]])).toThrow(new FileNeeded('data/x.bin#0-1'));
    expect(() => parts.need([[BLOCK_BYTES - 5, 2 * BLOCK_BYTES], [4 * BLOCK_BYTES + 1, 5 * BLOCK_BYTES + 9]])).toThrow(new FileNeeded('data/x.bin#0-5'));
    expect(parts.fetched(0, 5)).toEqual([1, 5]);
    expect(parts.fetched(0, 0)).toBeNull();
    // blocks 1–3 fetched (and 4 with them, between the ends not in), 0 copied in
    const [start, end] = parts.range(0, 5);
    const run = new Uint8Array(end - start);
    run.set(file.subarray(BLOCK_BYTES, 6 * BLOCK_BYTES), BLOCK_BYTES);
    await parts.takeRun(0, 5, run, [1, 5], sumsOfBlocks(file));
    expect(parts.held()).toEqual({ runs: 1, bytes: 6 * BLOCK_BYTES });
    parts.need([[5, 6 * BLOCK_BYTES - 5]]);
    const read = parts.at(5, 6 * BLOCK_BYTES - 5);
    expect(read.buffer).toBe(run.buffer);
    expect(Buffer.from(read).equals(Buffer.from(file.subarray(5, 6 * BLOCK_BYTES - 5)))).toBe(true);
    // a fetched block that is not the one listed is refused, and nothing of the run is taken in
    const other = new FileParts('data/x.bin', blocked(file));
    await other.take(0, 0, file.slice(0, BLOCK_BYTES), sumsOfBlocks(file));
    const bad = file.slice(0, 2 * BLOCK_BYTES);
    bad[BLOCK_BYTES + 3] ^= 1;
    await expect(other.takeRun(0, 1, bad, [1, 1], sumsOfBlocks(file))).rejects.toThrow(new BlockMismatch('block 1 does not match its listed SHA-256'));
    expect(other.fetched(0, 1)).toEqual([1, 1]);
  });

  it('holds no more runs than blocks, each block read from one run: reads across rounds join once, and a run no block reads from is let go of', async () => {
    const { file } = bigColumn(4000);
    const parts = new FileParts('data/x.bin', blocked(file));
    const blocks = blockCount(file.byteLength);
    const same = (start: number, end: number) => Buffer.from(parts.at(start, end)).equals(Buffer.from(file.subarray(start, end)));
    // one block a round, then every pair of neighbours read across their boundary, twice
    for (let b = 0; b < blocks; b++) await parts.take(b, b, file.slice(...parts.range(b, b)), sumsOfBlocks(file));
    expect(parts.held()).toEqual({ runs: blocks, bytes: file.byteLength });
    for (let round = 0; round < 2; round++) {
      for (let b = 1; b < blocks; b++) expect(same(b * BLOCK_BYTES - 5, b * BLOCK_BYTES + 5)).toBe(true);
    }
    const afterJoins = parts.held();
    expect(afterJoins.runs).toBeLessThanOrEqual(blocks);
    expect(afterJoins.bytes).toBeLessThanOrEqual(2 * file.byteLength);
    // the same reads again join nothing more
    for (let b = 1; b < blocks; b++) expect(same(b * BLOCK_BYTES - 5, b * BLOCK_BYTES + 5)).toBe(true);
    expect(parts.held()).toEqual(afterJoins);
    // a range fetched again whole (rounds that overlap): the runs it covers are let go of
    for (let round = 0; round < 50; round++) {
      const first = round % blocks;
      await parts.take(first, blocks - 1, file.slice(...parts.range(first, blocks - 1)), sumsOfBlocks(file));
      await parts.take(0, blocks - 1, file.slice(), sumsOfBlocks(file));
      expect(parts.held()).toEqual({ runs: 1, bytes: file.byteLength });
    }
    expect(same(7, file.byteLength - 3)).toBe(true);
  });

  it('names the runs of blocks not in yet, several sections in one round', () => {
    const { file } = bigColumn(4000);
    const parts = new FileParts('data/x.bin', blocked(file));
    let needed: readonly string[] = [];
    try {
      readTextColumn(parts.bytes, 4000, fault);
    } catch (e) {
      needed = (e as FileNeeded).rels;
    }
    expect(needed).toEqual(['data/x.bin#0-0']);
    expect(parsePartKey('data/x.bin#3-7')).toEqual({ rel: 'data/x.bin', first: 3, last: 7 });
    expect(parsePartKey('data/x.bin')).toBeNull();
  });

  it('are listed in the manifest for a large file by their SHA-256, one sum per block', () => {
    const big = new Uint8Array(BLOCKED_FILE_BYTES + 5).map((_, i) => i * 31);
    const digest = digestOf(big) as FileDigest & { blocks: string };
    expect(digest.blocks).toBe(sha256Hex(sumsOfBlocks(big)));
    expect(sumsOfBlocks(big).byteLength).toBe(blockCount(big.byteLength) * BLOCK_SUM_BYTES);
    expect(sumsOfBlocks(big).subarray(BLOCK_SUM_BYTES, 2 * BLOCK_SUM_BYTES)).toEqual(new Uint8Array(createHash('sha256').update(big.subarray(BLOCK_BYTES, 2 * BLOCK_BYTES)).digest()));
    expect(digestOf(big.subarray(0, BLOCKED_FILE_BYTES - 1)).blocks).toBeUndefined();
    // (a malformed one in a manifest: manifest.test.ts)
  });

  it('an autocomplete index read in parts answers as read whole, fetching the suggestions a page shows and the rows of the codes a query names', async () => {
    const objects = syntheticDirectory(30000, 5);
    const index = decodeIndex(buildIndexJson(objects));
    const codes = prefixCodes(index, 300);
    const file = autocompleteFile(index, prefixTops(index, 20), codes);
    expect(blockCount(file.byteLength)).toBeGreaterThan(8);
    expect(codes.keys.length).toBeGreaterThan(3);
    const whole = autocompleteOf(readAutocompleteFile(file));
    const parts = new FileParts('data/autocomplete.bin', blocked(file));
    const { value: ac, taken: atLoad } = await inParts(parts, file, () => autocompleteOf(readAutocompleteFile(parts.bytes)));
    // a single word whose first page is stored (the tops): none of the lists words are matched in is fetched
    const read = readAutocompleteFile(file);
    const top = read.tops!.keys.at(0);
    const { value: topPage, taken: forTop } = await inParts(parts, file, () => ac.search(top, null).page(0, 20));
    expect(topPage).toEqual(whole.search(top, null).page(0, 20));
    const blocksWithin = (section: Int32Array) => {
      const [first, last] = [Math.ceil(section.byteOffset / BLOCK_BYTES), Math.floor((section.byteOffset + section.byteLength) / BLOCK_BYTES) - 1];
      return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
    };
    const lists = [...blocksWithin(read.postings), ...blocksWithin(read.forward)];
    expect(lists.length).toBeGreaterThan(0);
    expect([...atLoad, ...forTop].filter((b) => lists.includes(b))).toEqual([]);
    const broad = Array.from({ length: codes.keys.length }, (_, k) => codes.keys.at(k));
    const words = objects.slice(0, 30).map((o) => o.presentation.split(/[\s,.()-]+/).find((w) => w.length >= 4)).filter((w): w is string => w !== undefined);
    const queries = [...broad, ...words.flatMap((w) => broad.slice(0, 3).map((b) => `${w} ${b}`)), ...broad.map((b) => `${b} ${broad[0]}`)];
    const taken = new Set<number>();
    for (const q of queries) {
      const want = whole.search(q, null).page(0, 20);
      const got = await inParts(parts, file, () => ac.search(q, null).page(0, 20));
      for (const b of got.taken) taken.add(b);
      expect(got.value, q).toEqual(want);
    }
    // not every block: the codes' rows and the suggestions no query named are not fetched
    expect(taken.size).toBeLessThan(blockCount(file.byteLength));
  });
});
