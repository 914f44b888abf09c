// The new dist as it is made in its staging folder: each file written as it comes, or linked from
// the previous dist where the ledger (ledger/dist-ledger.ts) proves it holds what this build would
// write; then the previous dist's other unchanged files carried over, the dist swapped in, and its
// ledger recorded. Without a cache there is no ledger, and every file is written: the same code.
import { mkdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AUTOCOMPLETE_DIR, eventPartFile } from '../../store/format/dist-paths.ts';
import { digestOf, type FileDigest, type Manifest } from '../../store/format/manifest.ts';
import { identityOf } from '../cache/cache-file.ts';
import { carryOver, LinkOrCopy } from '../ledger/carry-over.ts';
import { listFiles } from '../../util/same-files.ts';
import { changedWhileBuilt, DistLedger, writeLedger, type LedgerEntry, type Written } from '../ledger/dist-ledger.ts';
import { swapIn } from '../out-folder/swap.ts';
import { SpareFiles, spareFolderOf, writeOver } from '../../util/spare-files.ts';
import type { DistFiles } from '../../store/write/data-files.ts';
import { partBytes, type EventData } from '../../store/write/event-data.ts';

type Content = string | Uint8Array;

/** Writes each of `files` under `dir` (a build's staging folder), its folders made; into `spares` where one fits. */
export function writeFiles(dir: string, files: ReadonlyMap<string, Content>, spares?: SpareFiles): void {
  for (const [rel, content] of files) {
    const path = join(dir, rel);
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeOver(path, content, spares?.pick(typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength));
    } catch (e) {
      // node names no path when the write itself fails (ENOSPC, EIO); the user needs to know where
      const errno = e as NodeJS.ErrnoException;
      if (typeof errno.code === 'string' && errno.path === undefined) errno.path = path;
      throw e;
    }
  }
}

/** A file's SHA-256: the manifest's where it lists the file, else of its bytes. */
export function shaIn(manifest: Manifest, rel: string, content: Content): string {
  return manifest.files[rel]?.sha256 ?? digestOf(content).sha256;
}

/** What the next ledger records of a file: twins made at `volume` (null: none), its size measure, its inputs' key; `served`: a file the dist serves. */
type How = { volume: number | null; measure?: number; inputs?: string; served?: boolean };

/** Where the render stage puts the dist it makes: a staging folder, or `aula dev`'s memory (dev/memory-build.ts). */
export type DistOutput = Pick<StagedDist, 'reused' | 'digests' | 'data' | 'carried' | 'parts'>;

export class StagedDist {
  /** the previous build's record of its dist, when there is a cache and it can be trusted */
  readonly ledger: DistLedger | null;
  /** every file this build put in place, with its SHA-256 (and inputs' key), for the next ledger */
  readonly written: Written = new Map();
  /** the files the dist serves (deploy/routing-files.ts lists them), by SHA-256: the manifest's public files */
  readonly served = new Map<string, string>();
  /** the data files' digests (the event parts' kept ones too), as the manifest lists them */
  readonly digests = new Map<string, FileDigest>();
  /** taken over instead of made again: rows (render/state-render.ts), event-list pages */
  readonly reused = { rows: { reused: 0, rendered: 0 }, pages: 0 };
  /** each file linked (or copied) from the previous dist, twins included, by the identity it is proven by */
  readonly proven = new Map<string, string>();
  /** staged files the carry-over linked to (or found to be) the previous dist's */
  private carriedOver = new Set<string>();
  /** how files are put in the staging folder; the carry-over and the swap go on by the same decision */
  private readonly links = new LinkOrCopy();
  private readonly folders = new Set<string>();
  /** the files former builds freed, written into instead of new ones */
  readonly spares: SpareFiles;

  /** `ledgerFile`: the cache's file of the ledger (null: no cache); `ledger`: the previous build's, when the caller has read it already; `previous`: its manifest, whose event parts the build keeps */
  constructor(
    readonly staging: string,
    readonly out: string,
    readonly ledgerFile: string | null,
    ledger?: DistLedger,
    private readonly previous: Manifest | null = null,
  ) {
    this.ledger = ledgerFile === null ? null : (ledger ?? DistLedger.read(ledgerFile, out));
    this.spares = new SpareFiles(spareFolderOf(out));
  }

  /** Writes (or links, proven by its bytes) a data file, digested. */
  data(rel: string, content: Content): void {
    const digest = digestOf(content);
    this.digests.set(rel, digest);
    this.file(rel, content, digest.sha256);
  }

  /**
   * The event parts: a kept one (null) linked from the previous dist, proven by the ledger when the
   * plan was made (a link that fails now fails the build, as a page's does); the others made of
   * their segments (`bytes`: the previous parts' end to end) and written as data.
   */
  parts({ parts, cut }: Pick<EventData, 'parts' | 'cut'>, bytes?: (begin: number, end: number) => Uint8Array): void {
    parts.forEach((segments, j) => {
      const rel = eventPartFile(cut[j].name);
      if (segments !== null) return this.data(rel, partBytes(segments, bytes!));
      const digest = this.previous!.files[rel];
      if (!this.carried(rel, digest.sha256, { volume: null })) throw changedWhileBuilt(rel);
      this.digests.set(rel, digest);
    });
  }

  /** Records `rel` as this build's with `sha`, and links the previous dist's where the ledger proves it: false where it does not, and the caller puts the file in place. */
  carried(rel: string, sha: string, how: How): boolean {
    this.record(rel, sha, how);
    return this.reuse(rel, sha, how.volume, how.measure) !== null;
  }

  /** Links a file the dist serves, proven by its `inputs` key; false when not linked. */
  linked(rel: string, inputs: string | undefined, volume: number | null): boolean {
    const proven = inputs === undefined ? null : this.reuse(rel, inputs, volume);
    if (proven) this.record(rel, proven.sha, { volume, measure: proven.measure, inputs, served: true });
    return !!proven;
  }

  /** Writes (or links, proven by `sha`) a file whose SHA-256 is known. */
  private file(rel: string, content: Content, sha: string): void {
    if (!this.carried(rel, sha, { volume: null })) writeFiles(this.staging, new Map([[rel, content]]), this.spares);
  }

  /** Records a file put in place (for the next ledger, and the manifest's public files when `served`). */
  record(rel: string, sha: string, how: How): void {
    if (how.served) this.served.set(rel, sha);
    this.written.set(rel, { sha, inputs: how.inputs, measure: how.measure });
  }

  /** The data files the render left in memory written (or linked): from here on the dataset reads them back. */
  writeData(rendered: { files: DistFiles; manifest: Manifest }): void {
    for (const [rel, content] of rendered.files) {
      // the autocomplete files are written with their twins, with the pages; the manifest, complete, at the end
      if (rel.startsWith(`${AUTOCOMPLETE_DIR}/`) || rel === 'manifest.json' || this.written.has(rel)) continue;
      this.file(rel, content, shaIn(rendered.manifest, rel, content));
    }
  }

  /**
   * Links the previous dist's `rel` (with its twins at `volume`) where the ledger proves it what this
   * build would write; each is copied, checked, where the file system makes no hard links. Null:
   * nothing linked, and the caller makes the file.
   */
  private reuse(rel: string, proof: string, volume: number | null, measure?: number): LedgerEntry | null {
    const entry = this.ledger?.wouldReuse(rel, proof, volume, measure);
    if (!entry) return null;
    const [from, to] = [join(this.out, rel), join(this.staging, rel)];
    if (!this.folders.has(dirname(to))) mkdirSync(dirname(to), { recursive: true });
    this.folders.add(dirname(to));
    // each was just proven a regular file by its identity; a copy is checked by the file's SHA-256 too
    const files: [string, string][] = volume === null ? [['', entry.id]] : [['', entry.id], ['.gz', entry.gz!], ['.br', entry.br!]];
    try {
      for (const [ext, id] of files) {
        const staged = this.links.place(`${from}${ext}`, `${to}${ext}`, id, ext === '' ? entry.sha : undefined);
        if (staged === null) throw changedWhileBuilt(rel);
        this.proven.set(`${rel}${ext}`, staged);
      }
    } catch {
      for (const [ext] of files) if (this.proven.delete(`${rel}${ext}`)) unlinkSync(`${to}${ext}`);
      return null;
    }
    return entry;
  }

  /** Carries each staged file not linked, nor known to differ, over from the previous dist where its bytes are the same; returns the staged files. */
  carryOver(): string[] {
    const files = listFiles(this.staging);
    this.carriedOver = new Set(carryOver(this.out, this.staging, (rel) => this.proven.has(rel) || !!this.ledger?.differs(rel, this.written), files, this.links));
    return files;
  }

  /** Whether the previous dist holds a hard link to the staged `rel`: removing it moves the file's ctime. */
  private shared = (rel: string): boolean => this.proven.has(rel) || this.carriedOver.has(rel);

  /**
   * The identities of every file written (and its twins) among the staged `files`: a linked one's
   * from its proof, no lstat. Taken before the swap, before anybody else can reach them: what
   * changes after the swap is not proven.
   */
  identities(files: readonly string[]): Map<string, string> {
    const [present, staged] = [new Set(files), new Map<string, string>()];
    for (const rel of this.written.keys()) {
      for (const name of [rel, `${rel}.gz`, `${rel}.br`]) {
        const id = this.proven.get(name) ?? (present.has(name) ? identityOf(join(this.staging, name)) : null);
        if (id !== null) staged.set(name, id);
      }
    }
    return staged;
  }

  /** Swaps the staged `files` in; records the ledger of them, and `record`s what else the cache keeps, while the former dist's files go. */
  async swapIn(files: readonly string[], precompressed: Manifest['precompressed'], warn?: (message: string) => void, record: (ledgerFile: string) => void = () => {}): Promise<void> {
    const [ledgerFile, shared] = [this.ledgerFile, this.shared];
    const staged = ledgerFile === null ? null : this.identities(files);
    // once the former dist's links to the new files are gone, their identities are final
    const meanwhile = () => {
      if (ledgerFile === null) return;
      record(ledgerFile);
      writeLedger(ledgerFile, this.out, this.written, precompressed, staged!, shared);
    };
    await swapIn(this.staging, this.out, warn, files, this.links, { shared, meanwhile });
  }
}
