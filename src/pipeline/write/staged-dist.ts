// The new dist as it is made in its staging folder: each file written as it comes, or linked from
// the previous dist where the ledger (ledger/dist-ledger.ts) proves it holds what this build would
// write. Without a cache there is no ledger, and every file is written: the same code.
import { AUTOCOMPLETE_DIR, eventPartFile } from '../../store/format/dist-paths.ts';
import { digestOf, type FileDigest, type Manifest } from '../../store/format/manifest.ts';
import { changedWhileBuilt, DistLedger, ledgerPath, type Written } from '../ledger/dist-ledger.ts';
import type { DistFiles } from '../../store/write/data-files.ts';
import { writeFiles } from './write-files.ts';
import { partBytes, type EventData } from '../../store/write/event-data.ts';

type Content = string | Uint8Array;

/** A file's SHA-256: the manifest's where it lists the file, else of its bytes. */
export function shaIn(manifest: Manifest, rel: string, content: Content): string {
  return manifest.files[rel]?.sha256 ?? digestOf(content).sha256;
}

/** What the next ledger records of a file: twins made at `volume` (null: none), its size measure, its inputs' key; `served`: a file the dist serves. */
type How = { volume: number | null; measure?: number; inputs?: string; served?: boolean };

/** What an incremental build took over instead of making it again. */
export interface ReuseStats {
  /** rows taken from the previous dist, and rendered anew (render/state-render.ts) */
  rows: { reused: number; rendered: number };
  /** event-list pages linked from the previous dist (not answered) */
  pages: number;
  /** other files (data, documents, autocomplete) linked from the previous dist (not written) */
  files: number;
}

/** Where the render stage puts the dist it makes: a staging folder, or `aula dev`'s memory (dev/memory-build.ts). */
export type DistOutput = Pick<StagedDist, 'reused' | 'digests' | 'data' | 'carried' | 'parts'>;

export class StagedDist {
  /** the previous build's record of its dist, when there is a cache and it can be trusted */
  readonly ledger: DistLedger | null;
  readonly ledgerFile: string | null;
  /** every file this build put in place, with its SHA-256 (and inputs' key), for the next ledger */
  readonly written: Written = new Map();
  /** the files the dist serves (deploy/routing-files.ts lists them), by SHA-256: the manifest's public files */
  readonly served = new Map<string, string>();
  /** the data files' digests (the event parts' kept ones too), as the manifest lists them */
  readonly digests = new Map<string, FileDigest>();
  readonly reused: ReuseStats = { rows: { reused: 0, rendered: 0 }, pages: 0, files: 0 };

  /** `ledger`: the previous build's, when the caller has read it already; `previous`: its manifest, whose event parts the build keeps */
  constructor(
    readonly staging: string,
    readonly out: string,
    cache: { dir: string; content: string } | null,
    ledger?: DistLedger,
    private readonly previous: Manifest | null = null,
  ) {
    this.ledgerFile = cache === null ? null : ledgerPath(cache.dir, cache.content, out);
    this.ledger = this.ledgerFile === null ? null : (ledger ?? DistLedger.read(this.ledgerFile, out));
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
  parts(parts: EventData['parts'], bytes?: (begin: number, end: number) => Uint8Array): void {
    parts.forEach((segments, j) => {
      const rel = eventPartFile(j);
      if (segments !== null) return this.data(rel, partBytes(segments, bytes!));
      const digest = this.previous!.files[rel];
      if (!this.carried(rel, digest.sha256, { volume: null })) throw changedWhileBuilt(rel);
      this.digests.set(rel, digest);
    });
  }

  /**
   * Records `rel` as this build's with `sha` (a file the dist serves when `served`), and links the
   * previous dist's (with its twins made at `volume`, when given) where the ledger proves it: false
   * where it does not, and the caller puts the file in place.
   */
  carried(rel: string, sha: string, how: How): boolean {
    this.record(rel, sha, how);
    if (!this.ledger?.reuse(rel, this.staging, { sha }, how.volume, how.measure)) return false;
    this.reused.files++;
    return true;
  }

  /** Links a file the dist serves, proven by its `inputs` key; false when not linked. */
  linked(rel: string, inputs: string | undefined, volume: number | null): boolean {
    const proven = inputs === undefined ? null : this.ledger?.reuse(rel, this.staging, { inputs }, volume);
    if (proven) this.record(rel, proven.sha, { volume, measure: proven.measure, inputs, served: true });
    return !!proven;
  }

  /** Writes (or links, proven by `sha`) a file whose SHA-256 is known. */
  file(rel: string, content: Content, sha: string, how: How = { volume: null }): void {
    if (!this.carried(rel, sha, how)) writeFiles(this.staging, new Map([[rel, content]]));
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
}
