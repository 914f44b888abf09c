// Writes a seeded, reproducible content folder.
//   npm run gen -- --events N --directory M --out DIR [--seed S]
// The bundled sample is `npm run gen:sample` (200 events, 1000 directory objects, seed 1).

import { Command, InvalidArgumentError } from 'commander';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateContent } from '../src/gen/content-generator.ts';

function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a non-negative integer');
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('number too large');
  return n;
}

const program = new Command()
  .name('gen-content')
  .description('Generate a seeded, reproducible content folder (events, directory, media, pages, categories).')
  .option('--events <n>', 'number of events', nonNegativeInt, 200)
  .option('--directory <n>', 'number of directory objects', nonNegativeInt, 1000)
  .option('--seed <n>', 'random seed; the same seed writes the same bytes', nonNegativeInt, 1)
  .option('--out <dir>', 'content folder to (re)write', 'content')
  .option('--shape <shape>', 'files: mostly one Markdown file an event; lists: every event in a YAML list of three, bodies twice as long', 'files')
  .showHelpAfterError();

program.parse();
const opts = program.opts<{ events: number; directory: number; seed: number; out: string; shape: string }>();
if (opts.shape !== 'files' && opts.shape !== 'lists') program.error(`--shape must be files or lists, not ${opts.shape}`);

const outDir = resolve(opts.out);
const started = performance.now();
const { files, bytes } = await generateContent({ events: opts.events, directory: opts.directory, seed: opts.seed, outDir, shape: opts.shape as 'files' | 'lists' });
const seconds = (performance.now() - started) / 1000;

console.log(
  `wrote ${files} files, ${(bytes / 1_048_576).toFixed(1)} MiB (${bytes} bytes) to ${outDir} in ${seconds.toFixed(2)} s ` +
    `(${opts.events} events, ${opts.directory} directory objects, seed ${opts.seed})`,
);
