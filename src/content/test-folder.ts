// Test support: writes a content folder into a fresh temporary directory and loads it.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';
import type { Model } from '../model/types.ts';
import { loadContent } from './load.ts';
import { formatProblem, type Problem } from './problems.ts';

/** Creates the files (path → content) in a temporary folder removed when the test ends. */
export async function contentFolder(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'aula-content-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

export interface Loaded {
  model: Model | null;
  problems: Problem[];
  /** the problems as formatProblem writes them */
  lines: string[];
}

export async function load(files: Record<string, string | Uint8Array>): Promise<Loaded> {
  const { model, problems } = await loadContent(await contentFolder(files));
  return { model, problems, lines: problems.map(formatProblem) };
}

/** Loads files that must be valid, failing with their problems otherwise. */
export async function loadModel(files: Record<string, string | Uint8Array>): Promise<Model> {
  const { model, lines } = await load(files);
  if (!model) throw new Error(`expected valid content, got:\n${lines.join('\n')}`);
  return model;
}

/** Joins lines with a final line feed: a YAML or Markdown file written line by line. */
export const lines = (...text: string[]) => `${text.join('\n')}\n`;
