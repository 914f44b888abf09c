// "An incremental build writes what a clean build writes": the comparison the incremental, patch
// and reuse tests make after each step, in one place. The clean build is the same options without
// a cache, into a folder of its own that is removed again.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { build, type BuildOptions, type BuildResult } from '../src/pipeline/build.ts';
import { listFiles } from '../src/util/same-files.ts';
import { removeDir, tempDir } from './helpers.ts';

/**
 * changes.json lists what changed since the build before, so an incremental build's differs from
 * a clean one's by design (its own tests check it against the files that did change).
 */
const BY_DESIGN = new Set(['changes.json']);

/** rel → sha256 of every file of a dist, but changes.json. */
export function distDigests(dist: string): Map<string, string> {
  return new Map(
    listFiles(dist)
      .filter((rel) => !BY_DESIGN.has(rel))
      .map((rel) => [rel, createHash('sha256').update(readFileSync(join(dist, rel))).digest('hex')]),
  );
}

/** A build's problems as `aula build` prints them, [] when it succeeded. */
export function problemLines(result: BuildResult): string[] {
  return result.ok ? [] : result.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.key}: ${p.message}`);
}

export interface CleanComparison {
  /** the clean build's result */
  clean: BuildResult;
  /** files of either dist whose bytes differ, or which only one of them has (changes.json aside); [] when either build failed */
  differing: string[];
}

/** Builds `options` clean (no cache, a folder of its own) and compares its dist with `options.out` as it is now. */
export async function compareWithCleanBuild(options: BuildOptions): Promise<CleanComparison> {
  const dir = tempDir('aula-clean-');
  try {
    const clean = await build({ ...options, out: join(dir, 'dist'), cache: undefined });
    const built = clean.ok ? distDigests(options.out) : new Map<string, string>();
    const want = clean.ok ? distDigests(join(dir, 'dist')) : new Map<string, string>();
    const differing = [...new Set([...built.keys(), ...want.keys()])].filter((rel) => built.get(rel) !== want.get(rel)).sort();
    return { clean, differing };
  } finally {
    removeDir(dir);
  }
}

/**
 * Expects `result`, a build of `options` (incremental, patched, carried over…), to be what a clean
 * build of the same content makes: the same problems, the same file count, and, when it
 * succeeded, a dist the same byte for byte. Returns the clean build's result.
 */
export async function expectSameAsCleanBuild(result: BuildResult, options: BuildOptions, label = ''): Promise<BuildResult> {
  const { clean, differing } = await compareWithCleanBuild(options);
  expect(problemLines(result), `${label} problems`).toEqual(problemLines(clean));
  expect(result.ok, `${label} succeeded`).toBe(clean.ok);
  if (result.ok && clean.ok) {
    // the count the CLI prints ("N files") is the same whichever way the dist was made
    expect(result.files, `${label} file count`).toBe(clean.files);
    expect(differing, `${label} files that differ from a clean build`).toEqual([]);
  }
  return clean;
}
