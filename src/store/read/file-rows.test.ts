import { constants, mkdtempSync, readFileSync, renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENT_FIELDS } from '../../model/event-fields.ts';
import { EventRows, fieldIndex, serializeEvent } from '../format/event-rows.ts';
import { splitParts } from '../format/event-parts.ts';
import { FileRows, PartOpenError } from './file-rows.ts';

const dir = mkdtempSync(join(tmpdir(), 'aula-file-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function event(id: number, padding: number) {
  const obj = Object.fromEntries(EVENT_FIELDS.map((f) => [f, null])) as Record<(typeof EVENT_FIELDS)[number], unknown>;
  return serializeEvent({ ...obj, id, title: `Ä ${id} „x“ 🎉`, body: 'b'.repeat(padding), categories: [id % 3] });
}

// rows of very different lengths: some runs of neighbours, some rows farther apart than one read spans
const serialized = Array.from({ length: 60 }, (_, i) => event(i + 1, i % 7 === 0 ? 40_000 : 50 + i));
const memory = EventRows.from(serialized);
const path = join(dir, 'events.jsonl');
writeFileSync(path, memory.lineBytes);

function onFile(): EventRows {
  return new EventRows(new FileRows(path), memory.starts);
}

/** Counts the reads of the file a FileRows makes (a pread each, or a preadv of ranges near each other). */
function countReads(source: FileRows): { count: number } {
  const reads = { count: 0 };
  const spied = source as unknown as Record<'readPart' | 'readGathered', (...args: unknown[]) => void>;
  for (const name of ['readPart', 'readGathered'] as const) {
    const own = spied[name].bind(source);
    spied[name] = (...args: unknown[]) => {
      reads.count++;
      own(...args);
    };
  }
  return reads;
}

describe('FileRows', () => {
  it('reads each row by offset, byte for byte as in memory', () => {
    const rows = onFile();
    expect(rows.length).toBe(60);
    for (let r = 0; r < rows.length; r++) expect(rows.bytes(r).equals(memory.bytes(r)), `row ${r}`).toBe(true);
    expect(rows.lineBytes.equals(memory.lineBytes)).toBe(true);
    expect(JSON.parse(rows.value(3, fieldIndex('title')!))).toBe('Ä 4 „x“ 🎉');
  });

  it('eachRow visits the asked rows in order with their bytes, reading neighbours together', () => {
    const rows = onFile();
    const picks = Uint32Array.from([0, 1, 2, 5, 6, 7, 8, 20, 21, 22, 43, 59]);
    for (const [from, to] of [[0, picks.length], [2, 9], [11, 12], [4, 4]]) {
      const seen: [number, string][] = [];
      rows.eachRow(picks, from, to, (row, bytes) => seen.push([row, bytes.toString()]));
      expect(seen).toEqual(Array.from(picks.subarray(from, to), (row) => [row, memory.json(row)]));
    }
    const all: number[] = [];
    rows.eachRow(null, 10, 30, (row, bytes) => {
      expect(bytes.equals(memory.bytes(row))).toBe(true);
      all.push(row);
    });
    expect(all).toEqual(Array.from({ length: 20 }, (_, i) => 10 + i));
  });

  it('joinRows reads runs straight into one buffer, newlines turned into separators', () => {
    const head = Buffer.from('{"results":[');
    const tail = Buffer.from(']}');
    const expected = (rows: number[]) => Buffer.concat([head, Buffer.from(rows.map((r) => memory.json(r)).join(',')), tail]).toString();
    for (const source of [onFile(), memory]) {
      const picks = Uint32Array.from([0, 1, 2, 5, 6, 9, 20, 21, 22, 43, 59]);
      expect(source.joinRows(picks, 0, picks.length, head, 0x2c, tail).toString()).toBe(expected([...picks]));
      expect(source.joinRows(picks, 3, 4, head, 0x2c, tail).toString()).toBe(expected([5]));
      expect(source.joinRows(null, 10, 30, head, 0x2c, tail).toString()).toBe(expected(Array.from({ length: 20 }, (_, i) => 10 + i)));
      expect(source.joinRows(null, 4, 4, head, 0x2c, tail).toString()).toBe('{"results":[]}');
      expect(JSON.parse(source.joinRows(null, 0, 60, head, 0x2c, tail).toString()).results).toHaveLength(60);
    }
  });

  it('joinRows puts rows listed out of the file\'s order in their places, reading neighbours together', () => {
    const head = Buffer.from('{"results":[');
    const tail = Buffer.from(']}');
    const expected = (rows: number[]) => Buffer.concat([head, Buffer.from(rows.map((r) => memory.json(r)).join(',')), tail]).toString();
    const rows = new EventRows(new FileRows(path), memory.starts);
    const reads = countReads((rows as unknown as { source: FileRows }).source);
    // neighbours in reverse (read as one run, placed apart), a row of 40 KB, rows far apart
    const picks = Uint32Array.from([22, 21, 20, 0, 59, 2, 1, 43, 7, 8, 9, 6]);
    for (const [from, to] of [[0, picks.length], [1, 3], [3, 8], [4, 5]]) {
      expect(rows.joinRows(picks, from, to, head, 0x2c, tail).toString(), `${from}..${to}`).toBe(expected([...picks.subarray(from, to)]));
      expect(rows.joinRows(picks, from, to, head, 0x2c, tail).equals(memory.joinRows(picks, from, to, head, 0x2c, tail))).toBe(true);
    }
    reads.count = 0;
    rows.joinRows(picks, 0, 3, head, 0x2c, tail);
    expect(reads.count).toBe(1);
    // rows a few small rows apart in one read with the bytes between them; a 40 KB row between, two
    for (const [list, count] of [[[3, 1], 1], [[12, 8, 10], 1], [[15, 13], 2], [[6, 1, 3], 1]] as const) {
      reads.count = 0;
      const picked = Uint32Array.from(list);
      expect(rows.joinRows(picked, 0, picked.length, head, 0x2c, tail).toString(), `${list}`).toBe(expected(list.slice()));
      expect(reads.count, `${list}`).toBe(count);
    }
  });

  it('readRuns reads each run of neighbours once, the runs back to back at a place in a buffer', () => {
    const rows = onFile();
    const reads = countReads((rows as unknown as { source: FileRows }).source);
    const picks = Uint32Array.from([0, 1, 2, 5, 6, 9, 20, 21, 22, 43, 59]);
    // every seventh row is 40 KB, more than a gap read with the rows around it: 0, 1, 2, 5 and 6
    // in one read, 9 in one, 20..22 in one, 43 and 59 in one each
    for (const [list, from, to, runs] of [[picks, 0, picks.length, 5], [picks, 3, 5, 1], [null, 10, 30, 1], [picks, 4, 4, 0]] as const) {
      const length = rows.runsLength(list, from, to);
      const target = Buffer.alloc(length + 9, 0x2e);
      reads.count = 0;
      expect(rows.readRuns(list, from, to, target, 5)).toBe(length);
      expect(reads.count).toBe(runs);
      // each run as the file holds it (its rows and the newlines between them), then the next
      const expected: Buffer[] = [];
      for (let i = from; i < to; i++) {
        const row = list ? list[i] : i;
        if (i > from && (list ? list[i - 1] : i - 1) === row - 1) expected.push(Buffer.from('\n'));
        expected.push(memory.bytes(row));
      }
      expect(target.subarray(5, 5 + length).equals(Buffer.concat(expected))).toBe(true);
      expect(target.subarray(0, 5).toString() + target.subarray(5 + length).toString()).toBe('.........');
    }
  });

  it('shapes rows read from the file as from memory', () => {
    const rows = onFile();
    const cats = fieldIndex('categories')!;
    const swap = new Map([[cats, (v: string) => `{"was":${v}}`]]);
    for (const r of [0, 7, 59]) {
      expect(rows.project(r, [0, cats], swap).equals(memory.project(r, [0, cats], swap))).toBe(true);
      expect(rows.replaceValue(r, cats, () => '[]').equals(memory.replaceValue(r, cats, () => '[]'))).toBe(true);
    }
  });

  it('refuses reads after close and outside the file, and never hands out bytes past a truncated end', () => {
    const rows = onFile();
    const source = new FileRows(path);
    expect(() => source.read(source.byteLength - 2, 3)).toThrow(RangeError);
    expect(() => source.read(-1, 1)).toThrow(RangeError);
    rows.close();
    expect(() => rows.bytes(0)).toThrow(/closed/);
    const copy = join(dir, 'short.jsonl');
    writeFileSync(copy, memory.lineBytes);
    const short = new EventRows(new FileRows(copy), memory.starts);
    truncateSync(copy, 100);
    expect(() => short.bytes(59)).toThrow(/ended early/);
    source.close();
    short.close();
  });

  it('a file that does not fit the offsets is refused', () => {
    const copy = join(dir, 'longer.jsonl');
    writeFileSync(copy, Buffer.concat([memory.lineBytes, Buffer.from('\n{}')]));
    expect(() => new EventRows(new FileRows(copy), memory.starts)).toThrow(/differ in length/);
  });
});

/** 60 rows cut every 7 rows (dist-paths.ts partFirsts) */
const SEVENS = [0, 7, 14, 21, 28, 35, 42, 49, 56, 60];

describe('FileRows over event parts', () => {
  // 60 rows in parts of 7: eight parts of 7 rows and one of 4, reads crossing from one into the next
  const paths = splitParts(memory.lineBytes, memory.starts, SEVENS).map((part, i) => {
    const partPath = join(dir, `part-${i}.jsonl`);
    writeFileSync(partPath, part);
    return partPath;
  });
  const onParts = () => new EventRows(new FileRows(paths), memory.starts);

  it('reads rows, runs and pages across part boundaries byte for byte as in memory', () => {
    expect(paths).toHaveLength(9);
    const rows = onParts();
    for (let r = 0; r < rows.length; r++) expect(rows.bytes(r).equals(memory.bytes(r)), `row ${r}`).toBe(true);
    expect(rows.lineBytes.equals(memory.lineBytes)).toBe(true);
    const head = Buffer.from('[');
    const tail = Buffer.from(']');
    // rows 5..9 span parts 0 and 1; 0..60 every part
    for (const [from, to] of [[5, 9], [6, 8], [7, 8], [0, 60], [50, 60]]) {
      expect(rows.joinRows(null, from, to, head, 0x2c, tail).equals(memory.joinRows(null, from, to, head, 0x2c, tail)), `${from}..${to}`).toBe(true);
      const seen: number[] = [];
      rows.eachRow(null, from, to, (row, bytes) => {
        expect(bytes.equals(memory.bytes(row))).toBe(true);
        seen.push(row);
      });
      expect(seen).toHaveLength(to - from);
    }
    // a read spanning three parts at once
    const source = new FileRows(paths);
    const at = Number(memory.bytes(3).byteOffset - memory.bytes(0).byteOffset);
    const length = Number(memory.bytes(20).byteOffset - memory.bytes(3).byteOffset);
    expect(source.read(at, length).equals(memory.lineBytes.subarray(at, at + length))).toBe(true);
    source.close();
    rows.close();
    expect(() => rows.bytes(0)).toThrow(/closed/);
  });

  it('holds the rows\' head in memory once read: the same bytes, reads across its end and the parts', () => {
    const rows = onParts();
    const source = (rows as unknown as { source: FileRows }).source;
    // not a block's multiple, ends within a row: blocks of 64 KiB, the last one short
    const held = 150_000;
    source.holdHead(held);
    const inHead = Array.from({ length: rows.length }, (_, r) => r).filter((r) => rows.lineStart(r) + rows.byteLength(r) <= held);
    expect(inHead.length).toBeGreaterThan(8);
    expect(inHead.length).toBeLessThan(rows.length - 8);
    const head = Buffer.from('[');
    const tail = Buffer.from(']');
    for (let round = 0; round < 2; round++) {
      for (let r = rows.length - 1; r >= 0; r--) expect(rows.bytes(r).equals(memory.bytes(r)), `row ${r}`).toBe(true);
      expect(rows.lineBytes.equals(memory.lineBytes)).toBe(true);
      const picks = Uint32Array.from([inHead.at(-1)!, 0, inHead.at(-1)! + 1, 3, 59, 5, 6, 7]);
      expect(rows.joinRows(picks, 0, picks.length, head, 0x2c, tail).equals(memory.joinRows(picks, 0, picks.length, head, 0x2c, tail))).toBe(true);
      expect(rows.joinRows(null, 0, 60, head, 0x2c, tail).equals(memory.joinRows(null, 0, 60, head, 0x2c, tail))).toBe(true);
    }
    // a read across the head's end: the head from memory, the rest from the file
    expect(source.read(held - 1000, 3000).equals(memory.lineBytes.subarray(held - 1000, held + 2000))).toBe(true);
    rows.close();
  });

  it('answers rows of the head from memory once read, the rest from the file', () => {
    const copies = splitParts(memory.lineBytes, memory.starts, SEVENS).map((part, i) => {
      const partPath = join(dir, `held-${i}.jsonl`);
      writeFileSync(partPath, part);
      return partPath;
    });
    const rows = new EventRows(new FileRows(copies), memory.starts);
    const source = (rows as unknown as { source: FileRows }).source;
    source.holdHead(150_000);
    const inHead = Array.from({ length: rows.length }, (_, r) => r).filter((r) => rows.lineStart(r) + rows.byteLength(r) <= 150_000);
    for (const r of inHead) rows.bytes(r);
    // every part emptied under the reader: what the head holds is still answered, nothing else
    for (const copy of copies) truncateSync(copy, 0);
    for (const r of inHead) expect(rows.bytes(r).equals(memory.bytes(r)), `row ${r}`).toBe(true);
    expect(() => rows.bytes(59)).toThrow(/ended early/);
    rows.close();
    expect(() => rows.bytes(0)).toThrow(/closed/);
  });

  it('reads ranges near each other within a part with one read, the bytes between them dropped; ranges in the head from memory', () => {
    const source = new FileRows(paths);
    const reads = countReads(source);
    const all = memory.lineBytes;
    const range = (row: number): [number, number] => [memory.lineStart(row), memory.byteLength(row)];
    /** the rows' ranges, ascending, each copied to its own place (in reverse order, 3 bytes apart) */
    const readRows = (list: number[]) => {
      const pieces = new Float64Array(3 * list.length);
      let place = 3;
      for (let k = list.length - 1; k >= 0; k--) {
        const [at, length] = range(list[k]);
        pieces.set([place, at, length], 3 * k);
        place += length + 3;
      }
      const target = Buffer.alloc(place, 0x2e);
      reads.count = 0;
      source.readPieces(target, pieces, list.length);
      list.forEach((row, k) => {
        const [at, length] = range(row);
        expect(target.subarray(pieces[3 * k], pieces[3 * k] + length).equals(all.subarray(at, at + length)), `row ${row}`).toBe(true);
      });
      return reads.count;
    };
    // part 1 holds rows 7..13 (7 of 40 KB); part 2 rows 14..20 (14 of 40 KB)
    expect(readRows([8, 10, 13])).toBe(1);
    // a part's end: one read per part
    expect(readRows([12, 13, 15, 16])).toBe(2);
    // a 40 KB row between two: too far apart for one read
    expect(readRows([13, 15])).toBe(2);
    expect(readRows([14, 15, 17])).toBe(1);
    expect(readRows([9])).toBe(1);
    // rows in the head (part 0's bytes) come from memory once its block is read (one read, the first time)
    source.holdHead(memory.lineStart(7));
    expect(readRows([1, 2, 3])).toBe(1);
    expect(readRows([1, 2, 3])).toBe(0);
    expect(readRows([1, 2, 3, 9, 11])).toBe(1);
    source.close();
  });

  it('a part truncated under a read of ranges near each other: fails rather than handing out stale bytes', () => {
    const copies = paths.map((p, i) => {
      const copy = join(dir, `pieces-part-${i}.jsonl`);
      writeFileSync(copy, readFileSync(p));
      return copy;
    });
    const source = new FileRows(copies);
    truncateSync(copies[1], memory.lineStart(10) - memory.lineStart(7) + 10);
    const pieces = Float64Array.from([0, memory.lineStart(8), memory.byteLength(8), 5000, memory.lineStart(10), memory.byteLength(10)]);
    expect(() => source.readPieces(Buffer.alloc(10_000), pieces, 2)).toThrow(/part 1 .*ended early/);
    source.close();
  });

  it('names the part that cannot be opened, and closes the ones it opened', () => {
    const missing = [...paths.slice(0, 3), join(dir, 'no-such-part.jsonl')];
    let error: unknown;
    try {
      new FileRows(missing);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PartOpenError);
    expect((error as PartOpenError).part).toBe(3);
    expect(((error as PartOpenError).cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('a part truncated after loading: a read across it fails rather than handing out stale bytes', () => {
    const copies = paths.map((p, i) => {
      const copy = join(dir, `copy-part-${i}.jsonl`);
      writeFileSync(copy, readFileSync(p));
      return copy;
    });
    const rows = new EventRows(new FileRows(copies), memory.starts);
    truncateSync(copies[1], 10);
    expect(() => rows.bytes(10)).toThrow(/part 1 .*ended early/);
    expect(rows.bytes(20).equals(memory.bytes(20))).toBe(true);
    rows.close();
  });

  it('reads ahead through its own descriptors, a chunk a turn: the next whole read returns those bytes, once, though the files were renamed over', async () => {
    const copies = paths.map((p, i) => {
      const copy = join(dir, `ahead-part-${i}.jsonl`);
      writeFileSync(copy, readFileSync(p));
      return copy;
    });
    const file = new FileRows(copies);
    const chunks: Buffer[] = [];
    const ahead = await file.readAhead((chunk) => chunks.push(Buffer.from(chunk)));
    expect(ahead.equals(memory.lineBytes)).toBe(true);
    // each part's bytes handed over as they arrive, in order
    expect(Buffer.concat(chunks).equals(memory.lineBytes)).toBe(true);
    expect(chunks.length).toBeGreaterThanOrEqual(copies.length);
    // a new file renamed over a part: the descriptors stay on the files read ahead
    writeFileSync(`${copies[0]}.new`, Buffer.alloc(readFileSync(copies[0]).length));
    renameSync(`${copies[0]}.new`, copies[0]);
    // (identity by ===: toBe on buffers that differ compares them element by element for its message)
    expect(file.readAll() === ahead).toBe(true);
    // once: the next whole read reads the files again (the ones still open)
    const again = file.readAll();
    expect(again === ahead).toBe(false);
    expect(again.equals(memory.lineBytes)).toBe(true);
    file.close();
    await expect(file.readAhead()).rejects.toThrow(/closed/);
  });

  it.runIf(constants.O_NOATIME !== undefined)('reads the rows without updating their file\'s access time (a kernel check per row read)', (ctx) => {
    const file = join(dir, 'atime.jsonl');
    writeFileSync(file, memory.lineBytes);
    // an access time days old: a plain read updates it, under relatime too
    const old = new Date(Math.floor(Date.now() / 1000 - 3 * 86_400) * 1000);
    const atime = () => Math.round(statSync(file).atimeMs);
    utimesSync(file, old, old);
    readFileSync(file);
    // mounted noatime: no read updates it, so there is nothing to tell apart
    if (atime() === old.getTime()) ctx.skip();
    utimesSync(file, old, old);
    const rows = new EventRows(new FileRows(file), memory.starts);
    for (let r = 0; r < rows.length; r++) expect(rows.bytes(r).equals(memory.bytes(r))).toBe(true);
    expect(atime()).toBe(old.getTime());
    rows.close();
  });
});
