// The dataset of an edge isolate, read from the ASSETS binding (Workers static assets, or a
// workerd disk service over dist/) per need: the manifest (its head, manifestHead) on the first request, then each data
// file when an answer first reads it (the event rows a part at a time, a column when a filter
// first reads it), fetched once and checked against the manifest's size and SHA-256 before any
// of it is used; a large file read through its sections is fetched a section at a time, each
// block checked against its own SHA-256 among the file's block sums, fetched with its first
// blocks and checked against the manifest (file-parts.ts). The core reads synchronously, so a file
// not at hand yet is asked for by a throw (store/read/per-need.ts); `whenLoaded` fetches it and
// runs the answer again. The isolate then answers from its copies until it is recycled.
import { loadedFiles } from '../../store/format/dist-paths.ts';
import { blockCount, BLOCK_SUM_BYTES, blockSumsFile, DistError, parseManifest, type FileDigest, type Manifest } from '../../store/format/manifest.ts';
import { BlockMismatch, FileParts, parsePartKey } from './file-parts.ts';
import { bodyBytes, bodyInto } from './body-bytes.ts';
import { datasetFrom, type Dataset } from '../../query/dataset.ts';
import type { DistSource } from '../../store/read/dist-source.ts';
import { FileNeeded } from '../../store/read/per-need.ts';
import { checkDigest, ChecksumMismatch } from '../../store/read/verified-source.ts';

/** The part of the Fetcher binding this worker uses. */
export interface AssetFetcher {
  fetch(input: string, init?: { method?: string; headers?: Record<string, string> }): Promise<Response>;
}


/** A dataset that cannot be loaded here; `detail` is safe to show a client. */
export class EdgeLoadError extends Error {
  constructor(readonly detail: string, readonly permanent: boolean) {
    super(detail);
  }
}

/** `rel` as the messages name it (as the node loader names a file of dist/) */
const where = (rel: string) => `dist/${rel}`;

/** `rel`; `expected`: the bytes it should have (the manifest's size), read into a buffer of that size (body-bytes.ts) */
async function fetchFile(assets: AssetFetcher, rel: string, expected?: number): Promise<Uint8Array> {
  // the host is ignored by both bindings; only the path names the file
  const response = await assets.fetch(`https://assets.invalid/${rel}`, { method: 'GET' });
  if (!response.ok) {
    await response.body?.cancel();
    // not permanent: a deploy may still be under way
    throw new EdgeLoadError(`The API data is not deployed (${rel}: HTTP ${response.status}); deploy dist/ built with \`aula build --edge\`.`, false);
  }
  return expected === undefined ? new Uint8Array(await response.arrayBuffer()) : bodyBytes(response, expected);
}

/**
 * `range` of `rel` read into `into` (bodyInto): the view of the bytes read, or null when the
 * origin sends more. An origin that ignores the range sends the whole file; the range is copied
 * out of it.
 */
async function fetchInto(assets: AssetFetcher, rel: string, range: readonly [start: number, end: number], into: Uint8Array): Promise<Uint8Array | null> {
  const response = await assets.fetch(`https://assets.invalid/${rel}`, { method: 'GET', headers: { Range: `bytes=${range[0]}-${range[1] - 1}` } });
  if (response.status === 200) {
    // (copied out, so that a round holds what it asked for, not one more copy of the whole file)
    const whole = new Uint8Array(await response.arrayBuffer());
    const part = whole.subarray(range[0], range[1]);
    if (part.byteLength > into.byteLength) return null;
    into.set(part);
    return into.subarray(0, part.byteLength);
  }
  if (!response.ok) {
    await response.body?.cancel();
    // not permanent: a deploy may still be under way
    throw new EdgeLoadError(`The API data is not deployed (${rel}: HTTP ${response.status}); deploy dist/ built with \`aula build --edge\`.`, false);
  }
  return bodyInto(response, into);
}

const hex = (digest: ArrayBuffer) => Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');

/** The isolate's data files: each fetched once, when first needed, and held once verified. */
export class EdgeFiles {
  private readonly held = new Map<string, Uint8Array>();
  /** the files read in parts */
  private readonly parts = new Map<string, FileParts>();
  /** fetches under way: two answers needing the same file wait for one fetch */
  private readonly pending = new Map<string, Promise<void>>();
  /** the block sums of the files read in parts, checked against the manifest: fetched once each */
  private readonly sums = new Map<string, Promise<Uint8Array>>();
  readonly source: DistSource;

  constructor(
    private readonly assets: AssetFetcher,
    private readonly manifest: Manifest,
    manifestBytes: Uint8Array,
  ) {
    this.held.set('manifest.json', manifestBytes);
    const bytes = (rel: string) => {
      const held = this.held.get(rel);
      if (held === undefined) throw new FileNeeded(rel);
      return held;
    };
    this.source = {
      where,
      // every file held has been checked against the manifest (need)
      trusted: true,
      perNeed: true,
      bytes,
      sectioned: (rel) => {
        const held = this.held.get(rel);
        if (held !== undefined) return held;
        const digest = Object.hasOwn(manifest.files, rel) ? manifest.files[rel] : undefined;
        // (the manifest lists the blocks of the files large enough to read in parts)
        if (digest?.blocks === undefined) return bytes(rel);
        let parts = this.parts.get(rel);
        if (parts === undefined) this.parts.set(rel, (parts = new FileParts(rel, digest)));
        return parts.bytes;
      },
      text: (rel) => new TextDecoder().decode(bytes(rel)),
      require: (rel) => void bytes(rel),
    };
  }

  /**
   * Fetches `rel` (or the blocks a part key names, file-parts.ts) and checks it against the
   * manifest; a failure is not kept (a deploy may be under way).
   */
  need(rel: string): Promise<void> {
    let fetching = this.pending.get(rel);
    if (!fetching) {
      const part = parsePartKey(rel);
      fetching = (part === null ? this.fetchChecked(rel) : this.fetchPart(part.rel, part.first, part.last)).finally(() => this.pending.delete(rel));
      this.pending.set(rel, fetching);
    }
    return fetching;
  }

  /** Every file of `rels`, fetched at once: settled all before the first failure is thrown. */
  async needAll(rels: readonly string[]): Promise<void> {
    const settled = await Promise.allSettled(rels.map((rel) => this.need(rel)));
    for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  }

  private async fetchChecked(rel: string): Promise<void> {
    const bytes = await fetchFile(this.assets, rel, Object.hasOwn(this.manifest.files, rel) ? this.manifest.files[rel].bytes : undefined);
    // WebCrypto hashes only asynchronously: the digest is made here and checked as the node loader checks its files
    const digest = hex(await crypto.subtle.digest('SHA-256', bytes));
    try {
      checkDigest(this.source, this.manifest, rel, bytes, () => digest);
    } catch (e) {
      throw new EdgeLoadError(`The API data cannot be read (${(e as Error).message}).`, false);
    }
    this.held.set(rel, bytes);
  }

  /**
   * The block sums of `rel` (blockSumsFile), checked against the SHA-256 the manifest lists for
   * them; a failure is not kept.
   */
  private blockSums(rel: string): Promise<Uint8Array> {
    let sums = this.sums.get(rel);
    if (sums === undefined) {
      const digest = this.manifest.files[rel] as FileDigest & { blocks: string };
      const file = blockSumsFile(digest);
      sums = (async () => {
        // (its size follows from the file's: read into one buffer of it, not gathered and copied)
        const bytes = await fetchFile(this.assets, file, blockCount(digest.bytes) * BLOCK_SUM_BYTES);
        if (hex(await crypto.subtle.digest('SHA-256', bytes)) !== digest.blocks) {
          throw new EdgeLoadError(`The API data cannot be read (${where(file)}: does not match the SHA-256 manifest.json lists for the block sums of ${rel}; rebuild with \`aula build --edge\`).`, false);
        }
        return bytes;
      })();
      this.sums.set(rel, sums);
      sums.catch(() => this.sums.delete(rel));
    }
    return sums;
  }

  /**
   * Takes in blocks `from..to` of `rel` as one run: the blocks not in yet fetched straight into
   * their place in it, those in copied (FileParts.takeRun).
   */
  private async fetchPart(rel: string, from: number, to: number): Promise<void> {
    const parts = this.parts.get(rel)!;
    const fetched = parts.fetched(from, to);
    // (taken in meanwhile, by another answer's round)
    if (fetched === null) return;
    const [start, end] = parts.range(from, to);
    const [fetchStart, fetchEnd] = parts.range(...fetched);
    const run = new Uint8Array(end - start);
    // the sums with the first blocks: one round, not two
    const [body, sums] = await Promise.all([fetchInto(this.assets, rel, [fetchStart, fetchEnd], run.subarray(fetchStart - start, fetchEnd - start)), this.blockSums(rel)]);
    try {
      if (body === null || body.byteLength !== fetchEnd - fetchStart) {
        throw new BlockMismatch(`blocks ${fetched[0]}–${fetched[1]} are ${body === null ? 'more than' : body.byteLength} bytes, manifest.json says ${fetchEnd - fetchStart}`);
      }
      await parts.takeRun(from, to, new Uint8Array(body.buffer, body.byteOffset - (fetchStart - start), end - start), fetched, sums);
    } catch (e) {
      if (!(e instanceof BlockMismatch)) throw e;
      throw new EdgeLoadError(`The API data cannot be read (${where(rel)}: ${e.message}; rebuild with \`aula build\`).`, false);
    }
  }

  /**
   * `answer()`, run again after the files it needs have been fetched, until it needs none. A file
   * the loader finds damaged (a DistError) is answered as a dataset that cannot be read.
   */
  async whenLoaded<T>(answer: () => T): Promise<T> {
    // each round fetches a file not held before: at most one round per file
    for (let rounds = 0; rounds <= this.manifestFiles(); rounds++) {
      try {
        return answer();
      } catch (e) {
        // the files asked for together are fetched together (a failure of one is the round's)
        if (e instanceof FileNeeded) await this.needAll(e.rels);
        // damage found in a file that matches its checksum: another deploy of the same files will not help
        else if (e instanceof DistError) throw new EdgeLoadError(`The API data cannot be read (${e.message}).`, !(e instanceof ChecksumMismatch));
        else throw e;
      }
    }
    throw new Error('an answer kept needing files that were fetched');
  }

  private rounds = 0;

  /** Rounds an answer may take: each fetches a file or a run of blocks not held before. */
  private manifestFiles(): number {
    if (this.rounds === 0) {
      let rounds = 1;
      for (const digest of Object.values(this.manifest.files)) rounds += 1 + (digest.blocks === undefined ? 0 : blockCount(digest.bytes));
      this.rounds = rounds;
    }
    return this.rounds;
  }
}

/**
 * The manifest without its list of public files, which the isolate does not read (it fetches a
 * public file when asked for it): most of a large dist's manifest, and most of what decoding and
 * parsing it would make. The build writes the manifest indented by two spaces, so the member is
 * the one line that starts `  "public_files": {` (a JSON string holds no line break) to the
 * first line that is `  }` after it; the bytes are searched as they are (natively), not decoded
 * first. A manifest written otherwise is left whole.
 */
export function withoutPublicFiles(bytes: Uint8Array): Uint8Array {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const start = b.indexOf('\n  "public_files": {\n');
  if (start === -1) return bytes;
  const close = b.indexOf('\n  }', start);
  if (close === -1) return bytes;
  const end = close + '\n  }'.length;
  // the member and one comma beside it: the one after it, or (the last member) the one before it
  if (b[end] === COMMA) return Buffer.concat([b.subarray(0, start), b.subarray(end + 1)]);
  if (b[start - 1] === COMMA) return Buffer.concat([b.subarray(0, start - 1), b.subarray(end)]);
  return bytes;
}

const COMMA = 0x2c;

/** The manifest without its public files; one the cut does not leave whole is parsed (and judged) whole. */
function parseEdgeManifest(bytes: Uint8Array, checkedZone?: string): Manifest {
  const cut = withoutPublicFiles(bytes);
  if (cut !== bytes) {
    try {
      return parseManifest(new TextDecoder().decode(cut), 'manifest.json', checkedZone);
    } catch {
      // judged whole below: its own problem, named as the node loader names it
    }
  }
  return parseManifest(new TextDecoder().decode(bytes), 'manifest.json', checkedZone);
}

/**
 * The manifest's first bytes, fetched by range: its members before the public files fit in them
 * for a dist of a few hundred data files (many times the data an isolate loads by default),
 * while the public files that follow are most of a large dist's manifest, bytes an isolate would
 * fetch and search only to cut them away; and every byte fetched costs an isolate's first answer
 * CPU. A manifest whose public files start further in is fetched whole.
 */
export const MANIFEST_HEAD_BYTES = 128 * 1024;
/** The manifest's last bytes, fetched with the head: they show whether the public files are its last member. */
export const MANIFEST_TAIL_BYTES = 1024;

/**
 * The end of a manifest whose last member is the public files (the build writes them last,
 * publish-stage.ts): a public file's name and SHA-256, the member closed, the manifest closed. No
 * other member ends so (the files' entries are objects), so nothing the loader reads follows the
 * public files of a manifest whose tail is this, and its head cut before them is the rest of it.
 */
const ENDS_WITH_PUBLIC_FILES = /\n {4}"(?:[^"\\\n]|\\.)*": "[0-9a-f]{64}"\n {2}\}\n\}\n?$/;

/** `range` of `rel` (at most `bytes` long) as the origin answers it: the range (206), the whole file (200: `whole`) when `whole` is wanted, else null (its body let go of). */
async function fetchRange(assets: AssetFetcher, rel: string, range: string, bytes: number, whole: boolean): Promise<{ bytes: Uint8Array; whole: boolean } | null> {
  const response = await assets.fetch(`https://assets.invalid/${rel}`, { method: 'GET', headers: { Range: range } });
  if (response.status === 206) return { bytes: await bodyBytes(response, bytes), whole: false };
  if (whole && response.status === 200) return { bytes: new Uint8Array(await response.arrayBuffer()), whole: true };
  await response.body?.cancel();
  return null;
}

/**
 * The manifest without its public files, from its head and tail (fetched at once); or the whole
 * manifest, when the origin answers the head's range with the whole file (`whole`: then it is
 * not fetched again); or null when neither shows it: public files that start past the head or are
 * not the last member. Then the manifest is fetched whole (parseEdgeManifest).
 */
export async function manifestHead(assets: AssetFetcher): Promise<{ bytes: Uint8Array; whole: boolean } | null> {
  const [head, tail] = await Promise.all([
    fetchRange(assets, 'manifest.json', `bytes=0-${MANIFEST_HEAD_BYTES - 1}`, MANIFEST_HEAD_BYTES, true),
    fetchRange(assets, 'manifest.json', `bytes=-${MANIFEST_TAIL_BYTES}`, MANIFEST_TAIL_BYTES, false),
  ]);
  if (head?.whole) return head;
  if (head === null || tail === null) return null;
  const b = Buffer.from(head.bytes.buffer, head.bytes.byteOffset, head.bytes.byteLength);
  const start = b.indexOf('\n  "public_files": {\n');
  // (the tail's bytes as Latin-1: the pattern reads ASCII only, and a name's other bytes are not quotes, backslashes or line breaks)
  if (start === -1 || b[start - 1] !== COMMA || !ENDS_WITH_PUBLIC_FILES.test(Buffer.from(tail.bytes.buffer, tail.bytes.byteOffset, tail.bytes.byteLength).toString('latin1'))) return null;
  return { bytes: Buffer.concat([b.subarray(0, start - 1), Buffer.from('\n}\n')]), whole: false };
}

/** The manifest parsed from its head (manifestHead), or null: one the head does not show is judged whole, as the node loader judges it. */
function parseHead(head: Uint8Array | null, checkedZone?: string): Manifest | null {
  if (head === null) return null;
  try {
    return parseManifest(new TextDecoder().decode(head), 'manifest.json', checkedZone);
  } catch {
    return null;
  }
}

export interface EdgeLoadOptions {
  /** bytes of data files above which the isolate does not try to load them (it would exceed its memory) */
  maxDataBytes: number;
  /** overrides the base URL the dist was built with */
  baseUrl?: string;
  /** the site's time zone as the build that wrote the config checked it (parseManifest) */
  checkedZone?: string;
}

/**
 * The dataset over the isolate's files, each fetched when first read. Refuses, before reading the
 * data, a dist whose data files are larger than `maxDataBytes`: past that an isolate that came to
 * need them all would run out of memory, which kills it with no answer at all; a refusal answers
 * 503 with the reason instead.
 */
export async function loadEdgeDataset(assets: AssetFetcher, options: EdgeLoadOptions): Promise<{ dataset: Dataset; files: EdgeFiles }> {
  const head = await manifestHead(assets);
  const fromHead = head?.whole ? null : parseHead(head?.bytes ?? null, options.checkedZone);
  const manifestBytes = head?.whole ? head.bytes : fromHead === null ? await fetchFile(assets, 'manifest.json') : head!.bytes;
  let manifest: Manifest;
  let loaded: string[];
  try {
    manifest = fromHead ?? parseEdgeManifest(manifestBytes, options.checkedZone);
    loaded = loadedFiles(manifest);
  } catch (e) {
    // a manifest from another aula or a damaged one: redeploying the same files will not help
    throw new EdgeLoadError(`The API data cannot be read (${(e as Error).message}).`, e instanceof DistError);
  }
  // the manifest lists every loaded file's size, so the sizes need no request of their own
  let total = 0;
  for (const rel of loaded) total += manifest.files[rel]?.bytes ?? 0;
  if (total > options.maxDataBytes) {
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    throw new EdgeLoadError(
      `The API data (${mb(total)}) is larger than an edge isolate can hold (${mb(options.maxDataBytes)} of data files); serve it with \`aula serve\` instead.`,
      true,
    );
  }
  const files = new EdgeFiles(assets, manifest, manifestBytes);
  return { dataset: await files.whenLoaded(() => datasetFrom(files.source, { baseUrl: options.baseUrl, manifest })), files };
}
