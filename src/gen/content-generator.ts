// Seeded generator for a complete content folder (see shared/spec/content-format.md).
//
// Used for the bundled sample (`npm run gen:sample`) and by the benchmark at 100k events /
// 200k directory objects, so it streams: every file is written as soon as it is complete
// and nothing holds more than one batch of objects in memory.
//
// The parts: tree-writer (files), yaml-writer, wall-time (Vienna DST arithmetic, timestamp
// forms), site-files (site, pages, categories), media-bytes and media-records, vocabulary,
// event-generator with event-body and event-files, directory-generator.
//
// Determinism: every random choice comes from `Random` streams derived from the seed and a
// section label, iteration order is fixed, and YAML comes from one deterministic emitter
// (yaml-writer.ts). No clock, no Math.random(), no Intl (its tz data varies between Node builds).

import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Random } from './random.ts';
import { writeDirectory } from './directory-generator.ts';
import { writeEvents, type EventShape } from './event-files.ts';
import { writeMedia } from './media-records.ts';
import { writeCategories, writePages, writeSite } from './site-files.ts';
import { TreeWriter } from './tree-writer.ts';

export interface GenerateOptions {
  events: number;
  directory: number;
  seed: number;
  outDir: string;
  /** how the events are spread over files (event-files.ts): `files` by default */
  shape?: EventShape;
}

export interface GenerateResult {
  files: number;
  bytes: number;
}

/** What generateContent() owns inside outDir; only these are removed before writing. */
export const GENERATED_DIRS = ['events', 'directory', 'media'] as const;
export const GENERATED_FILES = ['site.yaml', 'pages.yaml', 'categories.yaml', 'media.yaml'] as const;

export async function generateContent(opts: GenerateOptions): Promise<GenerateResult> {
  for (const [name, value] of [['events', opts.events], ['directory', opts.directory], ['seed', opts.seed]] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
  await clearGenerated(opts.outDir);
  const out = new TreeWriter(opts.outDir);

  writeSite(out);
  const pages = writePages(out, Random.derive(opts.seed, 'pages'));
  const categories = writeCategories(out);
  const media = writeMedia(out, Random.derive(opts.seed, 'media'));
  writeEvents(out, Random.derive(opts.seed, 'events'), opts.events, { pages, categories, media }, opts.shape);
  writeDirectory(out, Random.derive(opts.seed, 'directory'), opts.directory);

  return { files: out.files, bytes: out.bytes };
}

async function clearGenerated(outDir: string): Promise<void> {
  const targets = [...GENERATED_DIRS, ...GENERATED_FILES].map((name) => join(outDir, name));
  await Promise.all(targets.map((target) => rm(target, { recursive: true, force: true })));
}
