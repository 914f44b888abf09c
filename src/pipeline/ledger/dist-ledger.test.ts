import { createHash } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { identityOf, writeSealed } from '../cache/cache-file.ts';
import { hardLinks } from './carry-over.ts';
import { listFiles } from '../../util/same-files.ts';
import { COMPRESSOR, DistLedger, writeLedger, type Written } from './dist-ledger.ts';
import { distCacheFile } from '../cache/cache-folder.ts';
import { StagedDist } from '../write/staged-dist.ts';

// every lstat the modules under test make, by path: the work a pass does is counted, not timed
const { lstats } = vi.hoisted(() => ({ lstats: [] as string[] }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const lstatSync = (path: string, ...rest: unknown[]) => (lstats.push(String(path)), (fs.lstatSync as (...a: unknown[]) => unknown)(path, ...rest));
  return { ...fs, default: { ...fs, lstatSync }, lstatSync };
});

const roots: string[] = [];
const links = { ...hardLinks };
afterEach(() => {
  Object.assign(hardLinks, links);
  roots.splice(0).forEach(removeDir);
});

/** A file system without hard links, as FAT's: every link refused with EPERM, after `before` (given the source). */
function noHardLinks(before: (from: string) => void = () => {}) {
  const tried: string[] = [];
  const refuse = (from: unknown) => {
    tried.push(String(from));
    before(String(from));
    return Object.assign(new Error(`EPERM: operation not permitted, link '${String(from)}'`), { code: 'EPERM' });
  };
  hardLinks.linkSync = (from) => {
    throw refuse(from);
  };
  return tried;
}

const SHA = 'a'.repeat(64);
const PAGE = 'v1/cms/event/index.json';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The identities of each file `written` names, and its twins, in `dir`: a dist's files as the build records them. */
function identities(dir: string, written: Written): Map<string, string> {
  const names = [...written.keys()].flatMap((rel) => [rel, `${rel}.gz`, `${rel}.br`]);
  return new Map(names.flatMap((name) => (identityOf(join(dir, name)) === null ? [] : [[name, identityOf(join(dir, name))!]])));
}

/** A previous dist with one page and its twins, its ledger, and an empty staging folder; `real`: the SHA-256 recorded are the files'. */
function setup(volume = 1000, real = false) {
  const root = tempDir('aula-ledger-');
  roots.push(root);
  const out = join(root, 'dist');
  const staging = join(root, 'staging');
  mkdirSync(join(out, 'v1/cms/event'), { recursive: true });
  mkdirSync(staging);
  for (const ext of ['', '.gz', '.br']) writeFileSync(join(out, `${PAGE}${ext}`), `page${ext}`);
  writeFileSync(join(out, 'data.json'), 'data');
  const written: Written = new Map([
    [PAGE, { sha: real ? sha256('page') : SHA, inputs: 'k1', measure: 4 }],
    ['data.json', { sha: real ? sha256('data') : 'b'.repeat(64) }],
  ]);
  const cache = { dir: join(root, 'cache'), content: join(root, 'content') };
  const path = distCacheFile(cache.dir, cache.content, out);
  writeLedger(path, out, written, { compressor: COMPRESSOR, volume }, identities(out, written));
  /** the staging folder as a build over the ledger at `path` makes it */
  const staged = () => new StagedDist(staging, out, path);
  return { root, out, staging, path, written, staged };
}

describe('the dist ledger', () => {
  it('leaves out a file changed between the swap and the ledger, and keeps one whose ctime alone moved', () => {
    const { root, out, path, written, staged } = setup();
    const ids = identities(out, written);
    // (past the file-system clock's tick of the writes above: an edit in that same tick keeps the mtime)
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30);
    // somebody edits the page in place (same size) while the build finishes; the former dist's
    // hard link to data.json goes (its ctime moves, its bytes do not)
    writeFileSync(join(out, PAGE), 'PAGE');
    linkSync(join(out, 'data.json'), join(root, 'former-link'));
    unlinkSync(join(root, 'former-link'));
    writeLedger(path, out, written, { compressor: COMPRESSOR, volume: 1000 }, ids);
    const dist = staged();
    expect(dist.linked(PAGE, 'k1', 1000)).toBe(false);
    expect(dist.carried('data.json', 'b'.repeat(64), { volume: null })).toBe(true);
  });

  it('looks again only at a file the former dist shared: another keeps its staged identity, which an edit since no longer matches', () => {
    const { root, out, path, written, staged } = setup();
    const ids = identities(out, written);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30);
    // data.json shared a link with the former dist, now gone; the page, written anew, is edited in place
    linkSync(join(out, 'data.json'), join(root, 'former-link'));
    unlinkSync(join(root, 'former-link'));
    writeFileSync(join(out, PAGE), 'PAGE');
    lstats.length = 0;
    writeLedger(path, out, written, { compressor: COMPRESSOR, volume: 1000 }, ids, (name) => name === 'data.json');
    expect(lstats).toEqual([join(out, 'data.json')]);
    const ledger = DistLedger.read(path, out)!;
    expect(ledger.entry(PAGE)!.id).toBe(ids.get(PAGE));
    expect(ledger.entry('data.json')!.id).toBe(identityOf(join(out, 'data.json')));
    const dist = staged();
    expect(dist.linked(PAGE, 'k1', 1000)).toBe(false);
    expect(dist.carried('data.json', 'b'.repeat(64), { volume: null })).toBe(true);
  });

  it('takes a linked file\'s staged identity from its proof, and leaves it out once edited after all', () => {
    const { root, staging, written, staged: stagedDist } = setup();
    const dist = stagedDist();
    expect(dist.linked(PAGE, 'k1', 1000)).toBe(true);
    expect(dist.carried('data.json', 'b'.repeat(64), { volume: null })).toBe(true);
    const staged = dist.identities(listFiles(staging));
    expect(staged.get(PAGE)).toBe(dist.ledger!.entry(PAGE)!.id);
    expect(staged.get(`${PAGE}.br`)).toBe(dist.ledger!.entry(PAGE)!.br);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30);
    // the page's inode, shared by both dists, edited once linked
    writeFileSync(join(staging, PAGE), 'PAGE');
    const next = join(root, 'next-ledger.json');
    writeLedger(next, staging, written, { compressor: COMPRESSOR, volume: 1000 }, staged);
    const after = DistLedger.read(next, staging)!;
    expect(after.entry(PAGE)).toBeUndefined();
    expect(after.entry('data.json')).toBeDefined();
  });

  it('lstats only what is staged: a linked file not at all before the swap, no twin a file has not', () => {
    const { root, staging, staged: stagedDist } = setup();
    const dist = stagedDist();
    expect(dist.linked(PAGE, 'k1', 1000)).toBe(true);
    writeFileSync(join(staging, 'new.json'), 'new');
    dist.record('new.json', 'c'.repeat(64), { volume: null });
    const written = dist.written;
    const files = listFiles(staging);
    lstats.length = 0;
    const staged = dist.identities(files);
    expect(lstats).toEqual([join(staging, 'new.json')]);
    expect([...staged.keys()].sort()).toEqual(['new.json', PAGE, `${PAGE}.br`, `${PAGE}.gz`]);
    lstats.length = 0;
    writeLedger(join(root, 'next-ledger.json'), staging, written, { compressor: COMPRESSOR, volume: 1000 }, staged);
    expect(lstats.sort()).toEqual(['new.json', PAGE, `${PAGE}.br`, `${PAGE}.gz`].map((rel) => join(staging, rel)));
    expect(DistLedger.read(join(root, 'next-ledger.json'), staging)!.entry('new.json')?.gz).toBeUndefined();
  });

  it('links a file proven by its inputs or its hash, with its twins, and nothing else', () => {
    const { out, staging, staged } = setup();
    const ledger = staged();
    expect(ledger.ledger).not.toBeNull();
    expect(ledger.linked(PAGE, 'other', 1000)).toBe(false);
    expect(ledger.carried('data.json', 'c'.repeat(64), { volume: null })).toBe(false);
    expect(ledger.carried('absent.json', SHA, { volume: null })).toBe(false);
    expect(existsSync(join(staging, PAGE))).toBe(false);

    expect(ledger.linked(PAGE, 'k1', 1000)).toBe(true);
    expect(ledger.written.get(PAGE)?.sha).toBe(SHA);
    for (const ext of ['', '.gz', '.br']) expect(statSync(join(staging, `${PAGE}${ext}`)).ino).toBe(statSync(join(out, `${PAGE}${ext}`)).ino);
    expect(ledger.carried('data.json', 'b'.repeat(64), { volume: null })).toBe(true);
    expect(readFileSync(join(staging, 'data.json'), 'utf8')).toBe('data');
  });

  it('knows a file and its twins differ where this build wrote other bytes than it recorded, and only there', () => {
    const { out, path } = setup();
    const ledger = DistLedger.read(path, out)!;
    const now: Written = new Map([
      [PAGE, { sha: 'c'.repeat(64) }],
      ['data.json', { sha: 'b'.repeat(64) }],
      ['new.json', { sha: SHA }],
    ]);
    expect([PAGE, `${PAGE}.gz`, `${PAGE}.br`].map((rel) => ledger.differs(rel, now))).toEqual([true, true, true]);
    expect(['data.json', 'new.json', 'unwritten.json'].map((rel) => ledger.differs(rel, now))).toEqual([false, false, false]);
  });

  it('a link that fails other than for want of hard links links nothing, and leaves what is in the way', () => {
    const { staging, staged } = setup();
    const ledger = staged();
    // something has the name of the .gz twin: that link fails, the page's is undone, the .br's not tried
    mkdirSync(join(staging, 'v1/cms/event'), { recursive: true });
    writeFileSync(join(staging, `${PAGE}.gz`), 'in the way');
    expect(ledger.linked(PAGE, 'k1', 1000)).toBe(false);
    expect([PAGE, `${PAGE}.br`].map((rel) => existsSync(join(staging, rel)))).toEqual([false, false]);
    expect(readFileSync(join(staging, `${PAGE}.gz`), 'utf8')).toBe('in the way');
    expect([...ledger.proven.keys()]).toEqual([]);
  });

  it('copies a file where the file system makes no hard links: the proven bytes, its mtime, no second link tried', () => {
    const { out, staging, staged } = setup(1000, true);
    const tried = noHardLinks();
    const ledger = staged();
    expect(ledger.linked(PAGE, 'k1', 1000)).toBe(true);
    expect(ledger.written.get(PAGE)?.sha).toBe(sha256('page'));
    expect(ledger.carried('data.json', sha256('data'), { volume: null })).toBe(true);
    for (const rel of [PAGE, `${PAGE}.gz`, `${PAGE}.br`, 'data.json']) {
      const [copy, proven] = [statSync(join(staging, rel)), statSync(join(out, rel))];
      expect(readFileSync(join(staging, rel))).toEqual(readFileSync(join(out, rel)));
      expect([copy.ino === proven.ino, copy.nlink, Math.trunc(copy.mtimeMs)], rel).toEqual([false, 1, Math.trunc(proven.mtimeMs)]);
      // the identity the next ledger is taken by is the copy's
      expect(ledger.proven.get(rel)).toBe(identityOf(join(staging, rel)));
    }
    expect(tried).toEqual([join(out, PAGE)]);
  });

  it('places no copy that is not the proven file: the source written meanwhile, or bytes other than the recorded SHA-256', () => {
    // written (same size) after it was proven, before it is copied: reuse refuses
    let { staging, staged } = setup(1000, true);
    noHardLinks((from) => writeFileSync(from, 'PAGE'));
    expect(staged().linked(PAGE, 'k1', null)).toBe(false);
    expect(existsSync(join(staging, PAGE))).toBe(false);
    // the ledger records a SHA-256 its (unchanged) file does not have: a link would not look, a copy does
    ({ staging, staged } = setup(1000, false));
    noHardLinks();
    expect(staged().carried('data.json', 'b'.repeat(64), { volume: null })).toBe(false);
    expect(existsSync(join(staging, 'data.json'))).toBe(false);
  });

  it('writes no ledger, and leaves no former one, where its JSON is longer than a string may be', () => {
    const { out, path, written } = setup();
    expect(DistLedger.read(path, out)).not.toBeNull();
    // (JSON.stringify meets V8's string limit past ~1.4M files: thrown here by the one object it is handed)
    const tooLong = { compressor: COMPRESSOR, volume: 1000, toJSON: () => { throw new RangeError('Invalid string length'); } };
    writeLedger(path, out, written, tooLong, identities(out, written));
    expect(existsSync(path)).toBe(false);
  });

  it('proves nothing of a file touched since: rewritten, truncated, chmod-ed, replaced, or a twin gone', () => {
    const edits: ((file: string) => void)[] = [
      (file) => writeFileSync(file, 'pagX'), // same size, other bytes
      (file) => writeFileSync(file, readFileSync(file)), // even the same bytes: not proven
      (file) => chmodSync(file, 0o600),
      (file) => {
        unlinkSync(file);
        writeFileSync(file, 'page');
      },
      (file) => unlinkSync(`${file}.br`),
      (file) => writeFileSync(`${file}.gz`, 'other'),
      // a link where the twin was, to a file of the same bytes: never linked into the new dist
      (file) => {
        writeFileSync(`${file}.copy`, readFileSync(`${file}.gz`));
        unlinkSync(`${file}.gz`);
        symlinkSync(`${file}.copy`, `${file}.gz`);
      },
    ];
    for (const edit of edits) {
      const { out, staging, staged } = setup();
      edit(join(out, PAGE));
      const ledger = staged();
      expect(ledger.linked(PAGE, 'k1', 1000), String(edit)).toBe(false);
      // nothing half-linked is left behind
      for (const ext of ['', '.gz', '.br']) expect(existsSync(join(staging, `${PAGE}${ext}`)), String(edit)).toBe(false);
    }
  });

  it('links no twins made at other levels, and the page alone when not compressing', () => {
    const { staging, staged } = setup(1000);
    const ledger = staged();
    // the whole set grew past the best-effort volume: small files get another brotli level now
    expect(ledger.linked(PAGE, 'k1', 64 << 20)).toBe(false);
    expect(ledger.linked(PAGE, 'k1', null)).toBe(true);
    expect(existsSync(join(staging, `${PAGE}.gz`))).toBe(false);
  });

  it('is not read when damaged, foreign, or of another out folder', () => {
    const { root, out, path } = setup();
    const good = readFileSync(path, 'utf8');
    writeFileSync(path, good.replace('"k1"', '"k2"'));
    expect(DistLedger.read(path, out)).toBeNull();
    writeFileSync(path, good.slice(0, -5));
    expect(DistLedger.read(path, out)).toBeNull();
    writeFileSync(path, good);
    expect(DistLedger.read(path, join(root, 'elsewhere'))).toBeNull();
    expect(DistLedger.read(join(root, 'none.json'), out)).toBeNull();
    expect(DistLedger.read(path, out)).not.toBeNull();
    // sealed as aula seals it, by something else: entries that are no entries
    const [magic, owner, , payload] = good.split('\n');
    for (const entry of [null, 5, { id: 'x' }, { sha: 5, id: 'x' }, { sha: 'a'.repeat(64) }]) {
      const forged = JSON.parse(payload) as { files: Record<string, unknown> };
      for (const rel of Object.keys(forged.files)) forged.files[rel] = entry;
      expect(writeSealed(path, `${magic}\n${owner}\n`, [Buffer.from(JSON.stringify(forged))])).toBe(true);
      expect(DistLedger.read(path, out), JSON.stringify(entry)).toBeNull();
    }
  });
});
