// How many requests the edge worker makes of its ASSETS binding: the dataset's files once each, when
// an answer first needs them, and no HEADs (their sizes are in the manifest); a public file once on
// its first request (the read that gives its ETag also answers), then once per answer, and not at
// all for a 304.
import { cpSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_FILES, FIXTURE_ORDER } from '../../../test/fixture-content.ts';
import { buildOk, firstPart, removeDir, tempDir, writeContent } from '../../../test/helpers.ts';
import { createApi } from '../../api/core.ts';
import { bodyBuffer } from '../../api/body.ts';
import type { ApiResponse } from '../../api/respond.ts';
import { loadDataset } from '../../query/dataset.ts';
import { AUTOCOMPLETE_DATA_FILE, DATA_FILES, eventOffsetsFile, eventPartFile, partFirsts, type EventPart } from '../../store/format/dist-paths.ts';
import { columnFile } from '../../store/format/column-files.ts';
import { BLOCK_BYTES, blockCount, BLOCKED_FILE_BYTES, blockSumsFile, sha256Hex, sumsOfBlocks, type FileDigest } from '../../store/format/manifest.ts';
import { blockSumFiles } from '../../deploy/edge-bundle.ts';
import { generateContent } from '../../gen/content-generator.ts';
import { AC, AUTOCOMPLETE_FILE_FORMAT } from '../../store/format/autocomplete-file.ts';
import { Sections } from '../../store/read/sections.ts';
import { decodeIndex } from '../../store/format/autocomplete-index.ts';
import { autocompleteFile } from '../../store/write/autocomplete-file.ts';
import { buildIndexJson } from '../../store/write/index-builder.ts';
import { prefixCodes } from '../../query/autocomplete/prefix-codes.ts';
import { prefixTops } from '../../query/autocomplete/prefix-tops.ts';
import { syntheticDirectory } from '../../query/autocomplete/test-fixtures.ts';
import { StringTable } from '../../store/read/string-table.ts';
import { EdgeLoadError, loadEdgeDataset, MANIFEST_HEAD_BYTES, MANIFEST_TAIL_BYTES, manifestHead, withoutPublicFiles, type AssetFetcher } from './assets.ts';
import { EdgePublicFiles } from './public-files.ts';

let root: string;
let dist: string;
beforeAll(async () => {
  root = tempDir('aula-edge-assets-');
  dist = join(root, 'dist');
  await buildOk({ content: writeContent(join(root, 'content'), FIXTURE_FILES), out: dist, precompress: false });
});
afterAll(() => removeDir(root));

/** dist/ as the asset service gives it, logging every request as "METHOD path"; `ignoreRange`: as an origin that answers every range with the whole file (200). */
function assetsOf(folder: string, log: string[], ignoreRange = false): AssetFetcher {
  return {
    async fetch(input, init) {
      const rel = new URL(input).pathname.slice(1);
      const method = init?.method ?? 'GET';
      const range = init?.headers?.Range;
      log.push(range === undefined ? `${method} ${rel}` : `${method} ${rel} ${range}`);
      let bytes: Buffer;
      try {
        if (!statSync(join(folder, rel)).isFile()) throw new Error('not a file');
        bytes = readFileSync(join(folder, rel));
      } catch {
        return new Response('not found', { status: 404 });
      }
      if (range !== undefined && !ignoreRange) {
        const [from, to] = range.slice('bytes='.length).split('-');
        // (`bytes=-N`: the last N bytes)
        const [start, end] = from === '' ? [Math.max(0, bytes.byteLength - Number(to)), bytes.byteLength - 1] : [Number(from), Math.min(Number(to), bytes.byteLength - 1)];
        return new Response(bytes.subarray(start, end + 1), { status: 206, headers: { 'Content-Range': `bytes ${start}-${end}/${bytes.byteLength}` } });
      }
      const headers = { 'Content-Length': String(bytes.byteLength) };
      return new Response(method === 'HEAD' ? null : bytes, { status: 200, headers });
    },
  };
}

const ask = (path: string, query = '') => ({ method: 'GET', path, query, headers: {} });

/** Lists the blocks of `bytes` (file `rel` of `folder`) in `digest` as a large dist's are, their sums written where an --edge build writes them. */
function listBlocks(folder: string, rel: string, digest: FileDigest, bytes: Uint8Array = readFileSync(join(folder, rel))): void {
  const sums = sumsOfBlocks(bytes);
  digest.blocks = sha256Hex(sums);
  const path = join(folder, blockSumsFile({ blocks: digest.blocks }));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, sums);
}

/** How an isolate asks for the manifest: its head and its tail at once (manifestHead). */
const MANIFEST_GETS = [`GET manifest.json bytes=0-${MANIFEST_HEAD_BYTES - 1}`, `GET manifest.json bytes=-${MANIFEST_TAIL_BYTES}`];

/** Flips one bit of the file at `path`, at the byte `at` picks; its bytes as they were. */
function damage(path: string, at: (bytes: Buffer) => number): Buffer {
  const original = readFileSync(path);
  const damaged = Buffer.from(original);
  damaged[at(damaged)] ^= 1;
  writeFileSync(path, damaged);
  return original;
}

/** What an answer that cannot be loaded is refused with (an EdgeLoadError's detail). */
async function refusal(answer: Promise<unknown>): Promise<string> {
  const refused = await answer.then(() => null, (e: unknown) => e);
  expect(refused).toBeInstanceOf(EdgeLoadError);
  return (refused as EdgeLoadError).detail;
}
/** The names of the event parts of the dist in `folder` holding its first `rows` rows. */
function partsOfFirstRows(folder: string, rows: number): string[] {
  const parts: EventPart[] = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')).event_parts;
  const firsts = partFirsts(parts);
  return parts.filter((_, i) => firsts[i] < rows).map((p) => p.name);
}

const bytesOf = (answer: ApiResponse) => (typeof answer.body === 'string' ? Buffer.from(answer.body) : bodyBuffer(answer.body));

describe('loading the dataset per need', () => {
  it('fetches the manifest and the categories to start, then each file once, when an answer first reads it; no HEAD request', async () => {
    const log: string[] = [];
    const { dataset, files } = await loadEdgeDataset(assetsOf(dist, log), { maxDataBytes: 1e9 });
    expect(log).toEqual([...MANIFEST_GETS, `GET ${DATA_FILES.categories}`]);
    const api = createApi(dataset);
    expect((await files.whenLoaded(() => api(ask('/v1/cms/event/', 'limit=1')))).status).toBe(200);
    expect(log.slice(3)).toEqual([`GET ${eventOffsetsFile(firstPart(dist))}`, `GET ${eventPartFile(firstPart(dist))}`]);
    expect((await files.whenLoaded(() => api(ask('/v1/cms/event/', 'title__icontains=a&limit=2')))).status).toBe(200);
    expect(log.slice(5)).toEqual([`GET ${columnFile.text('title')}`]);
    // two answers needing the same file at once: one fetch
    const both = await Promise.all([
      files.whenLoaded(() => api(ask('/v1/cms/event/', 'allday=true'))),
      files.whenLoaded(() => api(ask('/v1/cms/event/', 'allday=false'))),
    ]);
    expect(both.map((a) => a.status)).toEqual([200, 200]);
    expect(log.slice(6)).toEqual([`GET ${columnFile.bool('allday')}`]);
    expect(new Set(log).size).toBe(log.length);
  });

  it('answers the bytes the node loader answers', async () => {
    const node = createApi(loadDataset(dist));
    const { dataset, files } = await loadEdgeDataset(assetsOf(dist, []), { maxDataBytes: 1e9 });
    const edge = createApi(dataset);
    // the text columns are decoded per need: each list when an answer first reads it
    const queries = ['', 'limit=2&offset=1', 'title__icontains=a', 'title__iexact=x', 'title__contains=Kurs', 'organizer__icontains=a', 'location__istartswith=w', 'start__gte=2020-01-01', 'dfp_points__gte=1&register=true', 'categories=1', 'id=1', 'expand=categories', 'format=ics', 'search=kurs'];
    for (const q of queries) {
      const want = node(ask('/v1/cms/event/', q));
      const got = await files.whenLoaded(() => edge(ask('/v1/cms/event/', q)));
      expect([got.status, got.headers, bytesOf(got).toString()]).toEqual([want.status, want.headers, bytesOf(want).toString()]);
    }
    const want = node(ask('/v1/api/autocomplete/', 'q=a'));
    const got = await files.whenLoaded(() => edge(ask('/v1/api/autocomplete/', 'q=a')));
    expect(bytesOf(got).equals(bytesOf(want))).toBe(true);
  });

  it('reads a file whose manifest entry lists its blocks in parts, by range, and answers the bytes the node loader answers; a block that fails its checksum is refused', async () => {
    const copy = join(root, 'parts-dist');
    await buildOk({ content: writeContent(join(root, 'content'), FIXTURE_FILES), out: copy, precompress: false });
    // (the fixture's files are small: their blocks listed as a large dist's are)
    const inParts = [AUTOCOMPLETE_DATA_FILE, columnFile.text('title'), columnFile.text('teaser'), columnFile.iso('start')];
    const manifestPath = join(copy, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    for (const rel of inParts) listBlocks(copy, rel, manifest.files[rel]);
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
    const node = createApi(loadDataset(copy));
    const log: string[] = [];
    const { dataset, files } = await loadEdgeDataset(assetsOf(copy, log), { maxDataBytes: 1e9 });
    const edge = createApi(dataset);
    const events = ['title__icontains=a', 'title__iexact=x', 'title__istartswith=k', 'teaser__icontains=e', 'teaser__contains=Kurs', 'start__contains=2025', 'start__gte=2020-01-01'];
    const autocomplete = ['q=a', 'q=m', 'q=a%20b', 'q=ma%20a', 'q=s%20k%20a', 'q=m%C3%BCl', 'q=xyz', 'q=a&limit=100', 'q=a&offset=3'];
    const asked = [...events.map((q) => ['/v1/cms/event/', q] as const), ...autocomplete.map((q) => ['/v1/api/autocomplete/', q] as const)];
    for (const [path, q] of asked) {
      const want = node(ask(path, q));
      const got = await files.whenLoaded(() => edge(ask(path, q)));
      expect([got.status, bytesOf(got).toString()], q).toEqual([want.status, bytesOf(want).toString()]);
    }
    // read by range only
    for (const rel of inParts) {
      expect(log.filter((l) => l.startsWith(`GET ${rel} bytes=`)).length, rel).toBeGreaterThan(0);
      expect(log, rel).not.toContain(`GET ${rel}`);
    }
    // an origin that ignores Range and sends the whole file: the same answers
    const { dataset: whole, files: wholeFiles } = await loadEdgeDataset(assetsOf(copy, [], true), { maxDataBytes: 1e9 });
    const wholeApi = createApi(whole);
    for (const [path, q] of asked) {
      const want = node(ask(path, q));
      const got = await wholeFiles.whenLoaded(() => wholeApi(ask(path, q)));
      expect([got.status, bytesOf(got).toString()], q).toEqual([want.status, bytesOf(want).toString()]);
    }
    // a block that fails its checksum: refused when an answer first reads it
    const broken = join(root, 'parts-dist-broken');
    await buildOk({ content: writeContent(join(root, 'content'), FIXTURE_FILES), out: broken, precompress: false });
    writeFileSync(join(broken, 'manifest.json'), JSON.stringify(manifest, null, 2));
    for (const rel of inParts) writeFileSync(join(broken, rel), readFileSync(join(copy, rel)));
    cpSync(join(copy, 'edge'), join(broken, 'edge'), { recursive: true });
    damage(join(broken, AUTOCOMPLETE_DATA_FILE), () => 20);
    const { dataset: bad, files: badFiles } = await loadEdgeDataset(assetsOf(broken, []), { maxDataBytes: 1e9 });
    const badApi = createApi(bad);
    expect(await refusal(badFiles.whenLoaded(() => badApi(ask('/v1/api/autocomplete/', 'q=a'))))).toBe(
      `The API data cannot be read (dist/${AUTOCOMPLETE_DATA_FILE}: block 0 does not match its listed SHA-256; rebuild with \`aula build\`).`,
    );
    // the rest still answers
    expect((await badFiles.whenLoaded(() => badApi(ask('/v1/cms/event/', 'title__icontains=a')))).status).toBe(200);
    // block sums that are not the ones the manifest lists: refused by name, the file's blocks never taken
    const titleSums = join(broken, blockSumsFile(manifest.files[columnFile.text('title')]));
    damage(titleSums, () => 3);
    const { dataset: badSums, files: badSumsFiles } = await loadEdgeDataset(assetsOf(broken, []), { maxDataBytes: 1e9 });
    const badSumsApi = createApi(badSums);
    expect(await refusal(badSumsFiles.whenLoaded(() => badSumsApi(ask('/v1/cms/event/', 'title__icontains=a'))))).toBe(
      `The API data cannot be read (dist/${blockSumsFile(manifest.files[columnFile.text('title')])}: does not match the SHA-256 manifest.json lists for the block sums of ${columnFile.text('title')}; rebuild with \`aula build --edge\`).`,
    );
    expect((await badSumsFiles.whenLoaded(() => badSumsApi(ask('/v1/cms/event/', 'limit=1')))).status).toBe(200);
  });

  it('a row of prefix codes that holds no codes, posting lists, top lists or suggestion places that point outside the index, read in parts, are refused by name when a query first reads them though their blocks match their checksums; the rest still answers', async () => {
    const copy = join(root, 'codes-dist');
    await buildOk({ content: writeContent(join(root, 'content'), FIXTURE_FILES), out: copy, precompress: false });
    // (the fixture's directory is too small for prefix codes: a larger index in its place)
    const index = decodeIndex(buildIndexJson(syntheticDirectory(3000, 5)));
    // two rare terms: a query of both reads their postings (whichever way it matches them)
    const rare = Array.from({ length: index.terms.length }, (_, t) => t)
      .filter((t) => index.postStart[t + 1] - index.postStart[t] > 0 && /^[a-z]{4,}$/.test(index.terms.at(t)))
      .sort((a, b) => index.postStart[a + 1] - index.postStart[a] - (index.postStart[b + 1] - index.postStart[b]))
      .slice(0, 2);
    // a word the build answered (the tops): a query of it reads its key's lists and its page's suggestions
    const topWord = (s: Sections) => {
      const tops = StringTable.read(s, AC.topKeys, 'top keys');
      for (let k = 0; k < tops.length; k++) if (/^[a-z]+$/.test(tops.at(k))) return tops.at(k);
      throw new Error('no top key of one word');
    };
    const damages: [(s: Sections) => void, string, (keys: StringTable, s: Sections) => string][] = [
      // every row's codes 4 (no code is 4): a query of two keys reads their rows
      [(s) => s.u8(AC.codes, 'prefix codes').fill(0x44), 'whose prefix codes are no codes', (keys) => `${keys.at(0)} ${keys.at(1)}`],
      // read when a query's words are first matched: a query of the term reads its postings
      [(s) => rare.forEach((t) => (s.i32(AC.postings, 'postings')[index.postStart[t]] = index.size * 2)), 'whose postings point outside it', () => rare.map((t) => index.terms.at(t)).join(' ')],
      // read in parts, a key of the tops is checked when a query first reads it, not at load
      [(s) => s.u32(AC.topDocs, 'top results').fill(index.size), 'whose top results point outside it', (_, s) => topWord(s)],
      [(s) => s.u32(AC.topStarts, 'top lists').fill(0xffffffff, 1), 'whose top lists do not fit its lists', (_, s) => topWord(s)],
      // and the place of an object's suggestion when a page first shows it
      [(s) => s.u32(AC.suggestionStarts, 'suggestion offsets').fill(0xffffffff, 1), 'whose suggestions do not fit its lists', (_, s) => topWord(s)],
    ];
    for (const [damage, problem, query] of damages) {
      const file = autocompleteFile(index, prefixTops(index, 20), prefixCodes(index, 30));
      const s = Sections.of(file, AUTOCOMPLETE_FILE_FORMAT);
      const keys = StringTable.read(s, AC.codeKeys, 'prefix code keys');
      expect(keys.length).toBeGreaterThan(1);
      damage(s);
      writeFileSync(join(copy, AUTOCOMPLETE_DATA_FILE), file);
      const manifestPath = join(copy, 'manifest.json');
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      manifest.files[AUTOCOMPLETE_DATA_FILE] = { bytes: file.byteLength, sha256: sha256Hex(file) };
      listBlocks(copy, AUTOCOMPLETE_DATA_FILE, manifest.files[AUTOCOMPLETE_DATA_FILE], file);
      writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
      const { dataset, files } = await loadEdgeDataset(assetsOf(copy, []), { maxDataBytes: 1e9 });
      const api = createApi(dataset);
      expect(await refusal(files.whenLoaded(() => api(ask('/v1/api/autocomplete/', `q=${encodeURIComponent(query(keys, s))}`))))).toBe(
        `The API data cannot be read (dist/${AUTOCOMPLETE_DATA_FILE}: an autocomplete index file ${problem}; rebuild with \`aula build\`).`,
      );
      expect((await files.whenLoaded(() => api(ask('/v1/cms/event/', 'limit=1')))).status).toBe(200);
    }
  });

  it('a file that does not match the manifest is refused when an answer needs it, the others still answer, and it is fetched again later', async () => {
    const copy = join(root, 'corrupt-dist');
    await buildOk({ content: writeContent(join(root, 'content'), FIXTURE_FILES), out: copy, precompress: false });
    const column = join(copy, columnFile.text('title'));
    const original = damage(column, (bytes) => bytes.length - 1);
    const log: string[] = [];
    const { dataset, files } = await loadEdgeDataset(assetsOf(copy, log), { maxDataBytes: 1e9 });
    const api = createApi(dataset);
    expect(await refusal(files.whenLoaded(() => api(ask('/v1/cms/event/', 'title__icontains=a'))))).toBe(
      `The API data cannot be read (dist/${columnFile.text('title')}: does not match its SHA-256 in manifest.json; rebuild with \`aula build\`).`,
    );
    expect((await files.whenLoaded(() => api(ask('/v1/cms/event/', 'limit=1')))).status).toBe(200);
    writeFileSync(column, original);
    expect((await files.whenLoaded(() => api(ask('/v1/cms/event/', 'title__icontains=a')))).status).toBe(200);
    expect(log.filter((l) => l === `GET ${columnFile.text('title')}`)).toHaveLength(2);
  });

  it('a part whose rows do not fit the offsets is refused by name when an answer first reads it, though both match their checksums', async () => {
    const copy = join(root, 'misfit-dist');
    await buildOk({ content: writeContent(join(root, 'content'), FIXTURE_FILES), out: copy, precompress: false });
    const part = firstPart(copy);
    const offsetsPath = join(copy, eventOffsetsFile(part));
    const offsets = readFileSync(offsetsPath);
    // the second field of the first event one byte later than it is
    offsets.writeUInt32LE(offsets.readUInt32LE(4) + 1, 4);
    writeFileSync(offsetsPath, offsets);
    const manifestPath = join(copy, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    manifest.files[eventOffsetsFile(part)].sha256 = sha256Hex(offsets);
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const { dataset, files } = await loadEdgeDataset(assetsOf(copy, []), { maxDataBytes: 1e9 });
    const api = createApi(dataset);
    const refused = await files.whenLoaded(() => api(ask('/v1/cms/event/', 'limit=1'))).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EdgeLoadError);
    expect((refused as EdgeLoadError).detail).toMatch(
      new RegExp(`^The API data cannot be read \\(dist/data/events/${part}\\.offsets\\.bin: does not match the event rows in data/events/ \\(part 0: field \\w+ of event 0 is not where its offset says\\); rebuild with \`aula build\`\\)\\.$`),
    );
    // each row is checked when an answer first reads it: the part's other rows answer
    const byId = await Promise.all(FIXTURE_ORDER.map((id) => files.whenLoaded(() => api(ask('/v1/cms/event/', `id=${id}`))).then((a) => a.status, (e: unknown) => e)));
    expect(byId.filter((s) => s === 200)).toHaveLength(FIXTURE_ORDER.length - 1);
    expect(byId.filter((s) => s instanceof EdgeLoadError)).toHaveLength(1);
  });

  it('a page reaching several parts fetches every part it reaches, offsets and rows, in one round: the answer runs twice', async () => {
    const parted = join(root, 'parted-dist');
    await buildOk({ content: writeContent(join(root, 'content'), FIXTURE_FILES), out: parted, precompress: false, eventPartRows: 2 });
    const node = createApi(loadDataset(parted));
    const log: string[] = [];
    const { dataset, files } = await loadEdgeDataset(assetsOf(parted, log), { maxDataBytes: 1e9 });
    const api = createApi(dataset);
    let runs = 0;
    const got = await files.whenLoaded(() => {
      runs++;
      return api(ask('/v1/cms/event/', 'limit=4'));
    });
    expect(runs).toBe(2);
    // (the rows the page lists: the fixture's largest page may be shorter than 4)
    const reached = partsOfFirstRows(parted, JSON.parse(bytesOf(node(ask('/v1/cms/event/', 'limit=4'))).toString()).results.length);
    expect(reached.length).toBeGreaterThan(1);
    expect(log.slice(MANIFEST_GETS.length + 1).sort()).toEqual(reached.flatMap((name) => [eventOffsetsFile(name), eventPartFile(name)]).map((rel) => `GET ${rel}`).sort());
    expect(bytesOf(got).equals(bytesOf(node(ask('/v1/cms/event/', 'limit=4'))))).toBe(true);
  });

  it('reads an event part the manifest lists the blocks of in parts: an answer fetches its offsets and the blocks of the rows it reads, answers the bytes the node loader answers, and refuses a block that fails its checksum when a row in it is first read', async () => {
    const big = join(root, 'blocked-parts');
    await generateContent({ events: 700, directory: 20, seed: 7, outDir: join(big, 'content') });
    const out = join(big, 'dist');
    // (parts of at least 1,024 rows: the 700 events are one part)
    await buildOk({ content: join(big, 'content'), out, precompress: false, eventPartRows: 4096 });
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    const part0 = eventPartFile(manifest.event_parts[0].name);
    expect(manifest.event_parts).toHaveLength(1);
    const partBytes = manifest.files[part0].bytes;
    // (the build lists a part's blocks once it is large enough to read in parts)
    expect(partBytes).toBeGreaterThanOrEqual(BLOCKED_FILE_BYTES);
    expect(manifest.files[part0].blocks).toBe(sha256Hex(sumsOfBlocks(readFileSync(join(out, part0)))));
    // the block sums, as an --edge build writes them
    for (const [rel, sums] of blockSumFiles(out, manifest)) {
      mkdirSync(dirname(join(out, rel)), { recursive: true });
      writeFileSync(join(out, rel), sums);
    }
    const partSums = blockSumsFile(manifest.files[part0]);
    const log: string[] = [];
    const { dataset, files } = await loadEdgeDataset(assetsOf(out, log), { maxDataBytes: 1e9 });
    const edge = createApi(dataset);
    const node = createApi(loadDataset(out));
    // the first page: the offsets and the part's first block, not the part
    const first = await files.whenLoaded(() => edge(ask('/v1/cms/event/', 'limit=1')));
    expect(bytesOf(first).equals(bytesOf(node(ask('/v1/cms/event/', 'limit=1'))))).toBe(true);
    // (the part's block sums with its first blocks, once)
    expect(log.slice(MANIFEST_GETS.length + 1)).toEqual([`GET ${eventOffsetsFile(manifest.event_parts[0].name)}`, `GET ${part0} bytes=0-${BLOCK_BYTES - 1}`, `GET ${partSums}`]);
    const queries = ['', 'limit=1000', 'offset=650&limit=30', 'title__icontains=a&limit=200', 'ordering=-start&limit=50', 'id=9', 'expand=categories&limit=100', 'format=ics&limit=100', 'search=a'];
    for (const q of queries) {
      const want = node(ask('/v1/cms/event/', q));
      const got = await files.whenLoaded(() => edge(ask('/v1/cms/event/', q)));
      expect([got.status, got.headers, bytesOf(got).toString()], q).toEqual([want.status, want.headers, bytesOf(want).toString()]);
    }
    expect(log).not.toContain(`GET ${part0}`);
    expect(log.filter((l) => l === `GET ${partSums}`)).toHaveLength(1);
    // under another base URL every row is rewritten: the same bytes as the node loader's
    const elsewhere = await loadEdgeDataset(assetsOf(out, []), { maxDataBytes: 1e9, baseUrl: 'https://elsewhere.example/x' });
    const rebased = createApi(elsewhere.dataset);
    const nodeRebased = createApi(loadDataset(out, { baseUrl: 'https://elsewhere.example/x' }));
    for (const q of ['limit=3', 'offset=600&limit=100']) {
      const got = await elsewhere.files.whenLoaded(() => rebased(ask('/v1/cms/event/', q)));
      expect(bytesOf(got).toString(), q).toBe(bytesOf(nodeRebased(ask('/v1/cms/event/', q))).toString());
    }
    // a bit flipped in the part's last block: the rows before it answer; a row in it is refused by name
    damage(join(out, part0), (bytes) => bytes.length - 10);
    const { dataset: bad, files: badFiles } = await loadEdgeDataset(assetsOf(out, []), { maxDataBytes: 1e9 });
    const badApi = createApi(bad);
    expect((await badFiles.whenLoaded(() => badApi(ask('/v1/cms/event/', 'limit=5')))).status).toBe(200);
    const last = blockCount(partBytes) - 1;
    expect(await refusal(badFiles.whenLoaded(() => badApi(ask('/v1/cms/event/', 'offset=690&limit=10'))))).toBe(
      `The API data cannot be read (dist/${part0}: block ${last} does not match its listed SHA-256; rebuild with \`aula build\`).`,
    );
  });

  it('a damaged file among those fetched in one round is refused by name; the others are kept, it is fetched again', async () => {
    const parted = join(root, 'parted-damaged-dist');
    await buildOk({ content: writeContent(join(root, 'content'), FIXTURE_FILES), out: parted, precompress: false, eventPartRows: 2 });
    const second = eventPartFile(partsOfFirstRows(parted, 4)[1]);
    const part = join(parted, second);
    const original = damage(part, (bytes) => bytes.indexOf('"title"') + 1);
    const log: string[] = [];
    const { dataset, files } = await loadEdgeDataset(assetsOf(parted, log), { maxDataBytes: 1e9 });
    const api = createApi(dataset);
    expect(await refusal(files.whenLoaded(() => api(ask('/v1/cms/event/', 'limit=4'))))).toBe(
      `The API data cannot be read (dist/${second}: does not match its SHA-256 in manifest.json; rebuild with \`aula build\`).`,
    );
    writeFileSync(part, original);
    expect((await files.whenLoaded(() => api(ask('/v1/cms/event/', 'limit=4')))).status).toBe(200);
    // part 0 and both offsets files were held from the refused round; the damaged part alone is fetched again
    expect(log.slice(MANIFEST_GETS.length + 1).filter((l) => l === `GET ${second}`)).toHaveLength(2);
    expect(new Set(log.filter((l) => l !== `GET ${second}`)).size).toBe(log.length - 2);
  });

  it('takes the zone the config names as checked without asking Intl again; a manifest naming another zone is checked, and an unknown one refused', async () => {
    const copy = join(root, 'zone-dist');
    cpSync(dist, copy, { recursive: true });
    const manifestPath = join(copy, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    const zone = manifest.site.timezone;
    for (const checkedZone of [undefined, zone, 'UTC']) {
      const { dataset } = await loadEdgeDataset(assetsOf(copy, []), { maxDataBytes: 1e9, checkedZone });
      expect(dataset.site.timezone).toBe(zone);
    }
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, site: { ...manifest.site, timezone: 'Mars/Base' } }, null, 2));
    for (const checkedZone of [undefined, zone]) {
      expect(await refusal(loadEdgeDataset(assetsOf(copy, []), { maxDataBytes: 1e9, checkedZone }))).toBe(
        'The API data cannot be read (manifest.json: site.timezone is malformed; rebuild with `aula build`).',
      );
    }
    // (the config's zone is the build's word: the isolate does not ask again)
    expect((await loadEdgeDataset(assetsOf(copy, []), { maxDataBytes: 1e9, checkedZone: 'Mars/Base' })).dataset.site.timezone).toBe('Mars/Base');
  });

  it('reads the manifest without its public files, as the node loader reads the rest of it', () => {
    const bytes = readFileSync(join(dist, 'manifest.json'));
    const { public_files: files, ...rest } = JSON.parse(bytes.toString());
    expect(Object.keys(files).length).toBeGreaterThan(0);
    const cut = withoutPublicFiles(bytes);
    expect(cut.byteLength).toBeLessThan(bytes.byteLength);
    expect(JSON.parse(Buffer.from(cut).toString())).toEqual(rest);
    // not the last member: the comma after it goes with it
    const first = Buffer.from(`${JSON.stringify({ public_files: files, ...rest }, null, 2)}\n`);
    expect(JSON.parse(Buffer.from(withoutPublicFiles(first)).toString())).toEqual(rest);
    // written otherwise: left whole
    const flat = Buffer.from(JSON.stringify(JSON.parse(bytes.toString())));
    expect(withoutPublicFiles(flat)).toBe(flat);
  });

  it('refuses a dist over the bound from the manifest alone, before fetching the data', async () => {
    const log: string[] = [];
    const refused = await loadEdgeDataset(assetsOf(dist, log), { maxDataBytes: 1000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EdgeLoadError);
    expect((refused as EdgeLoadError).permanent).toBe(true);
    expect((refused as EdgeLoadError).detail).toMatch(/larger than an edge isolate can hold/);
    expect(log).toEqual(MANIFEST_GETS);
  });

  it("reads the manifest from its head and tail when its public files are its last member; else, or from an origin that answers no range, it is fetched whole", async () => {
    const whole = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
    const { public_files: served, ...rest } = whole;
    // a large dist's public files: most of its manifest, past the head
    const many = { ...served, ...Object.fromEntries(Array.from({ length: 8000 }, (_, i) => [`v1/cms/event/offset/${i * 20}.json`, sha256Hex(Buffer.from(String(i)))])) };
    const written = (m: object) => Buffer.from(`${JSON.stringify(m, null, 2)}\n`);
    const servedOnly = (bytes: Buffer): AssetFetcher => ({
      async fetch(input, init) {
        const range = init?.headers?.Range;
        if (range === undefined) return new Response(bytes);
        const [from, to] = range.slice('bytes='.length).split('-');
        const [start, end] = from === '' ? [bytes.byteLength - Number(to), bytes.byteLength - 1] : [Number(from), Math.min(Number(to), bytes.byteLength - 1)];
        return new Response(bytes.subarray(start, end + 1), { status: 206, headers: { 'Content-Range': `bytes ${start}-${end}/${bytes.byteLength}` } });
      },
    });
    const last = written({ ...rest, public_files: many });
    expect(last.byteLength).toBeGreaterThan(2 * MANIFEST_HEAD_BYTES);
    const head = await manifestHead(servedOnly(last));
    expect(head!.whole).toBe(false);
    expect(JSON.parse(Buffer.from(head!.bytes).toString())).toEqual(rest);
    // the rest of the manifest and its public files both within the head: the same
    expect(JSON.parse(Buffer.from((await manifestHead(servedOnly(written(whole))))!.bytes).toString())).toEqual(rest);
    // a member after the public files, public files first, public files past the head: not read from the head
    expect(await manifestHead(servedOnly(written({ ...rest, public_files: many, later: { a: 1 } })))).toBeNull();
    expect(await manifestHead(servedOnly(written({ ...rest, public_files: many, later: sha256Hex(Buffer.from('x')) })))).toBeNull();
    expect(await manifestHead(servedOnly(written({ public_files: many, ...rest })))).toBeNull();
    const padded = { ...rest, files: { ...rest.files, ...Object.fromEntries(Array.from({ length: Math.ceil(MANIFEST_HEAD_BYTES / 50) }, (_, i) => [`data/pad/${i}.bin`, { sha256: sha256Hex(Buffer.from(String(i))), bytes: 1 }])) } };
    expect(await manifestHead(servedOnly(written({ ...padded, public_files: many })))).toBeNull();
    // each of those loads from the whole manifest, as one that is read whole from the start
    for (const m of [{ ...rest, public_files: many, later: { a: 1 } }, { public_files: many, ...rest }, { ...padded, public_files: many }]) {
      const copy = join(root, 'manifest-dist');
      const log: string[] = [];
      cpSync(dist, copy, { recursive: true });
      writeFileSync(join(copy, 'manifest.json'), written(m));
      const { dataset } = await loadEdgeDataset(assetsOf(copy, log), { maxDataBytes: 1e9 });
      expect(log.slice(0, 3)).toEqual([...MANIFEST_GETS, 'GET manifest.json']);
      expect(dataset.manifest.files).toEqual(m.files);
      removeDir(copy);
    }
    // an origin that answers every range with the whole file: the head's answer is the manifest, not fetched again
    const log: string[] = [];
    const { dataset } = await loadEdgeDataset(assetsOf(dist, log, true), { maxDataBytes: 1e9 });
    expect(log.slice(0, 3)).toEqual([...MANIFEST_GETS, `GET ${DATA_FILES.categories}`]);
    expect(dataset.manifest.build_id).toBe(whole.build_id);
  });
});

describe('public files', () => {
  const page = 'openapi.json';
  const ask = (files: EdgePublicFiles, method: string, ifNoneMatch?: string) =>
    files.answer({ method, path: `/${page}`, ifNoneMatch });

  it('a first GET fetches the file once and answers from that read', async () => {
    const log: string[] = [];
    const files = new EdgePublicFiles(assetsOf(dist, log), 'http://127.0.0.1:8000', 'public, max-age=60');
    const first = (await ask(files, 'GET'))!;
    const bytes = readFileSync(join(dist, page));
    expect(first.status).toBe(200);
    expect(Buffer.from(await first.arrayBuffer()).equals(bytes)).toBe(true);
    expect(first.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(log).toEqual([`GET ${page}`]);

    const etag = first.headers.get('etag')!;
    expect((await ask(files, 'GET', etag))!.status).toBe(304);
    expect(log).toHaveLength(1);

    const again = (await ask(files, 'GET'))!;
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    expect(again.headers.get('etag')).toBe(etag);
    expect(log).toEqual([`GET ${page}`, `GET ${page}`]);
  });

  it('a HEAD after the first request asks for no body', async () => {
    const log: string[] = [];
    const files = new EdgePublicFiles(assetsOf(dist, log), 'http://127.0.0.1:8000', 'public, max-age=60');
    const head = (await ask(files, 'HEAD'))!;
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(head.headers.get('content-length')).toBe(String(statSync(join(dist, page)).size));
    await ask(files, 'HEAD');
    expect(log).toEqual([`GET ${page}`, `HEAD ${page}`]);
  });

  it('a file absent at first is answered once deployed', async () => {
    const log: string[] = [];
    const empty = join(root, 'empty');
    const files = new EdgePublicFiles(assetsOf(empty, log), 'http://127.0.0.1:8000', 'public, max-age=60');
    expect(await ask(files, 'GET')).toBeNull();
    writeContent(empty, { [page]: '{"openapi":"3"}' });
    const later = (await ask(files, 'GET'))!;
    expect(await later.text()).toBe('{"openapi":"3"}');
  });
});
