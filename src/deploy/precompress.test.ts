import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressFor, compressible, MIN_COMPRESS_BYTES, negotiateEncoding } from '../server/compress.ts';
import { compressionLevels, compressionPool, compressTwins, precompress } from './precompress.ts';

const page = JSON.stringify({ count: 3, results: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Vortrag über Herzgesundheit ${i}` })) });

describe('precompress', () => {
  it('writes .gz and .br beside every .json/.js/.ics file and round-trips', async () => {
    const bytes = new Uint8Array([123, 125]);
    const out = await precompress(
      new Map<string, string | Uint8Array>([
        ['v1/cms/event/index.json', page],
        ['autocomplete/autocomplete.js', 'export const a = 1;'.repeat(50)],
        ['calendar.ics', 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n'],
        ['tiny.json', bytes],
        ['data/events.offsets.bin', new Uint8Array(4000)],
        ['manifest.json.gz', new Uint8Array(10)],
      ]),
    );
    expect([...out.keys()].sort()).toEqual([
      'autocomplete/autocomplete.js.br', 'autocomplete/autocomplete.js.gz',
      'calendar.ics.br', 'calendar.ics.gz',
      'tiny.json.br', 'tiny.json.gz',
      'v1/cms/event/index.json.br', 'v1/cms/event/index.json.gz',
    ]);
    expect(gunzipSync(out.get('v1/cms/event/index.json.gz')!).toString()).toBe(page);
    expect(brotliDecompressSync(out.get('v1/cms/event/index.json.br')!).toString()).toBe(page);
    expect(Buffer.from(brotliDecompressSync(out.get('tiny.json.br')!)).equals(Buffer.from(bytes))).toBe(true);
    expect(out.get('v1/cms/event/index.json.br')!.length).toBeLessThan(out.get('v1/cms/event/index.json.gz')!.length);
  });

  it('round-trips a file above the 1 MB brotli threshold', async () => {
    const big = 'x'.repeat(1024 * 1024 + 1) + page;
    const out = await precompress(new Map([['autocomplete/index.json', big]]));
    expect(brotliDecompressSync(out.get('autocomplete/index.json.br')!).toString()).toBe(big);
    expect(gunzipSync(out.get('autocomplete/index.json.gz')!).toString()).toBe(big);
  });
});

describe('compressionLevels', () => {
  it('gives the best ratio to a small set, and levels that scale to a large one', () => {
    const MB = 1024 * 1024;
    expect(compressionLevels(50_000, 3 * MB)).toEqual({ gzip: 9, brotli: 11 });
    expect(compressionLevels(50_000, 300 * MB)).toEqual({ gzip: 6, brotli: 6 });
    for (const volume of [3 * MB, 300 * MB]) expect(compressionLevels(2 * MB, volume)).toEqual({ gzip: 5, brotli: 5 });
  });
});

describe('compressionPool with files compressed ahead', () => {
  const big = 'y'.repeat(1024 * 1024 + 1) + page;
  const levels = compressionLevels(big.length, 1e9);

  it('compressTwins gives the bytes of the pool workers', async () => {
    const pooled = await precompress(new Map([['autocomplete/minisearch.json', big], ['v1/a.json', page]]));
    const twins = compressTwins(big, levels);
    expect(Buffer.from(twins.gz).equals(pooled.get('autocomplete/minisearch.json.gz')!)).toBe(true);
    expect(Buffer.from(twins.br).equals(pooled.get('autocomplete/minisearch.json.br')!)).toBe(true);
    const small = compressTwins(page, compressionLevels(page.length, big.length + page.length));
    expect(Buffer.from(small.br).equals(pooled.get('v1/a.json.br')!)).toBe(true);
  });

  it('takes a ready file only for the same content at the same levels', async () => {
    const marked = (content: string, at: typeof levels) => ({ ...compressTwins(content, at), gz: new Uint8Array([1]), br: new Uint8Array([2]) });
    const pool = compressionPool(1e9, 1, new Map([
      ['same.json', marked(big, levels)],
      ['other.json', marked(`${big} `, levels)],
      ['levels.json', marked(big, { gzip: 9, brotli: 11 })],
    ]));
    for (const path of ['same.json', 'other.json', 'levels.json']) pool.add(path, big);
    const out = await pool.finish();
    expect([...out.get('same.json.gz')!]).toEqual([1]);
    expect([...out.get('same.json.br')!]).toEqual([2]);
    for (const path of ['other.json', 'levels.json']) expect(gunzipSync(out.get(`${path}.gz`)!).toString()).toBe(big);
  });
});

describe('compressionPool.add(…, posted)', () => {
  it('tells once per file when its content is no longer read, so its memory can be reused', async () => {
    const pool = compressionPool(1e9, 1, new Map([['ready.json', compressTwins(page, compressionLevels(page.length, 1e9))]]));
    const told: string[] = [];
    // a buffer the caller overwrites as soon as it is told: the twins must be of the bytes as added
    const reused = Buffer.from(page);
    pool.add('v1/a.json', reused, () => {
      told.push('v1/a.json');
      reused.fill(0x20);
    });
    // queued below the 1 MB batch: not posted yet, so not told yet
    expect(told).toEqual([]);
    pool.add('notes.txt', 'not compressed', () => told.push('notes.txt'));
    pool.add('ready.json', page, () => told.push('ready.json'));
    expect(told).toEqual(['notes.txt', 'ready.json']);
    // a batch of 1 MB or more is posted at once
    pool.add('v1/big.json', 'z'.repeat(1 << 20), () => told.push('v1/big.json'));
    expect(told).toEqual(['notes.txt', 'ready.json', 'v1/a.json', 'v1/big.json']);
    const out = await pool.finish();
    expect(gunzipSync(out.get('v1/a.json.gz')!).toString()).toBe(page);
    expect(brotliDecompressSync(out.get('v1/a.json.br')!).toString()).toBe(page);
    expect(told).toHaveLength(4);
  });
});

describe('compressionPool.settled', () => {
  it('resolves once the workers are at most that many bytes behind, and the output is the same', async () => {
    const files = Array.from({ length: 12 }, (_, i) => [`v1/p${i}.json`, `${page}${i}`.repeat(1 + ((1 << 20) / page.length) | 0)] as const);
    const pool = compressionPool(1e9, 1);
    let idle = false;
    void pool.settled(0).then(() => (idle = true));
    await new Promise((next) => setImmediate(next));
    expect(idle).toBe(true);
    // each file fills a batch of its own (≥ 1 MB): three are in flight before the first answer
    for (const [path, content] of files.slice(0, 3)) pool.add(path, content);
    let settled = false;
    const wait = pool.settled(1 << 20).then(() => (settled = true));
    expect(settled).toBe(false);
    await wait;
    expect(settled).toBe(true);
    for (const [path, content] of files.slice(3)) {
      pool.add(path, content);
      await pool.settled(2 << 20);
    }
    const out = await pool.finish();
    const all = await precompress(new Map(files));
    expect([...out.keys()]).toEqual([...all.keys()]);
    for (const [path, bytes] of all) expect(Buffer.from(out.get(path)!).equals(bytes)).toBe(true);
  });
});

describe('negotiateEncoding', () => {
  const table: [string | undefined, 'br' | 'gzip' | null][] = [
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['deflate', null],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0.5, gzip;q=0.5', 'br'],
    ['gzip;q=0.5', 'gzip'], // identity is not named, so it does not compete
    ['gzip;q=0.5, identity', null],
    ['gzip, identity;q=0.5', 'gzip'],
    ['gzip, identity', 'gzip'],
    ['*', 'br'],
    ['*;q=0', null],
    ['*;q=0.3, gzip', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['gzip;q=0', null],
    ['gzip;q=0.000', null],
    ['gzip;q=0.001', 'gzip'],
    ['gzip;q=2', null], // malformed weight: the member is ignored
    ['gzip;q=abc, br', 'br'],
    ['gzip;q=0.5;foo=bar', 'gzip'],
    [' br ; q=0.9 , gzip ; q=0.8 ', 'br'],
    [',,gzip,,', 'gzip'],
  ];
  it.each(table)('%j → %j', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('compressFor', () => {
  const body = Buffer.from(page);

  it('round-trips both codings, dynamic and not', () => {
    for (const dynamic of [true, false]) {
      expect(gunzipSync(compressFor('gzip', body, dynamic)!).equals(body)).toBe(true);
      expect(brotliDecompressSync(compressFor('br', body, dynamic)!).equals(body)).toBe(true);
    }
  });

  it('compresses harder when the result is kept', () => {
    expect(compressFor('br', body, false)!.length).toBeLessThanOrEqual(compressFor('br', body, true)!.length);
  });

  it('leaves small bodies and identity alone', () => {
    expect(compressFor('gzip', Buffer.alloc(MIN_COMPRESS_BYTES - 1, 97), true)).toBeNull();
    expect(compressFor('gzip', Buffer.alloc(MIN_COMPRESS_BYTES, 97), true)).not.toBeNull();
    expect(compressFor(null, body, true)).toBeNull();
  });
});

describe('compressible', () => {
  it.each([
    ['application/json', true],
    ['text/html; charset=utf-8', true],
    ['text/calendar', true],
    ['application/javascript', true],
    ['image/png', false],
    [undefined, false],
  ])('%s → %s', (type, expected) => {
    expect(compressible(type)).toBe(expected);
  });
});

describe('compressionPool writing the twins itself', () => {
  it('writes the very bytes finish() would return under the folder, none returned', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aula-twins-'));
    try {
      const files = new Map([['v1/cms/event/index.json', page], ['deep/er/x.json', `${page} `]]);
      const ready = new Map([['ready.json', compressTwins(page, compressionLevels(page.length, 1e9))]]);
      const pools = [compressionPool(1e9, 2, ready, { dir }), compressionPool(1e9, 2, ready)];
      for (const pool of pools) {
        for (const [path, content] of files) pool.add(path, content);
        pool.add('ready.json', page);
      }
      expect(await pools[0].finish()).toEqual(new Map());
      const expected = await pools[1].finish();
      expect(expected.size).toBe(6);
      for (const [path, bytes] of expected) expect(readFileSync(join(dir, path)).equals(bytes)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('place() writes the file itself on a worker, with twins only where asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aula-twins-'));
    try {
      const pool = compressionPool(1e9, 2, new Map(), { dir });
      const told: string[] = [];
      const hashed: string[] = [];
      pool.place('v1/a.json', page, true, () => told.push('v1/a.json'), (sha) => hashed.push(sha));
      pool.place('v1/deep/b.json', Buffer.from(`${page} `), false, () => told.push('v1/deep/b.json'));
      pool.place('notes.txt', 'not compressed', true);
      expect(await pool.finish()).toEqual(new Map());
      expect(told).toEqual(['v1/a.json', 'v1/deep/b.json']);
      expect(hashed).toEqual([createHash('sha256').update(page).digest('hex')]);
      expect(readFileSync(join(dir, 'v1/a.json'), 'utf8')).toBe(page);
      expect(brotliDecompressSync(readFileSync(join(dir, 'v1/a.json.br'))).toString()).toBe(page);
      expect(gunzipSync(readFileSync(join(dir, 'v1/a.json.gz'))).toString()).toBe(page);
      expect(readFileSync(join(dir, 'v1/deep/b.json'), 'utf8')).toBe(`${page} `);
      expect(existsSync(join(dir, 'v1/deep/b.json.gz')) || existsSync(join(dir, 'v1/deep/b.json.br'))).toBe(false);
      expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('not compressed');
      expect(() => compressionPool(1e9, 1).place('x.json', page, true)).toThrow(/under a folder/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('place() writes each page as it was when placed, its buffer reused by the caller once posted, over many batches', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aula-twins-'));
    try {
      const pool = compressionPool(1e9, 2, new Map(), { dir });
      // buffers given back once posted and taken again for the next page, as the answers' pooled
      // blocks are (page-buffers.ts), overwritten when given back; pages of 200 KB: a batch of a
      // few, and more batches than the pool keeps blocks for
      const free: Buffer[] = [];
      const pages = 120;
      const hashed = new Map<string, string>();
      for (let i = 0; i < pages; i++) {
        const body = (free.pop() ?? Buffer.alloc(200_000)).fill(`page ${i} `);
        pool.place(`v1/p/${i}.json`, body, i < 3, () => free.push(body.fill(0)), (sha) => hashed.set(`v1/p/${i}.json`, sha));
        await pool.settled(1 << 20);
      }
      await pool.finish();
      for (let i = 0; i < pages; i++) {
        const expected = Buffer.alloc(200_000, `page ${i} `);
        expect(readFileSync(join(dir, `v1/p/${i}.json`)).equals(expected), `page ${i}`).toBe(true);
        expect(hashed.get(`v1/p/${i}.json`)).toBe(createHash('sha256').update(expected).digest('hex'));
      }
      expect(brotliDecompressSync(readFileSync(join(dir, 'v1/p/2.json.br'))).equals(Buffer.alloc(200_000, 'page 2 '))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails finish() with the error of a placed file\'s write, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aula-twins-'));
    try {
      writeFileSync(join(dir, 'v1'), 'not a folder');
      const pool = compressionPool(1e9, 1, new Map(), { dir });
      pool.place('v1/a.json', page, false);
      await expect(pool.finish()).rejects.toMatchObject({ code: expect.stringMatching(/^E/), path: join(dir, 'v1', 'a.json') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails finish() with the error of a write, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aula-twins-'));
    try {
      // a file where the twin's folder must be
      writeFileSync(join(dir, 'v1'), 'not a folder');
      const pool = compressionPool(1e9, 1, new Map(), { dir });
      pool.add('v1/a.json', page);
      await expect(pool.finish()).rejects.toMatchObject({ code: expect.stringMatching(/^E/), path: join(dir, 'v1', 'a.json.gz') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
