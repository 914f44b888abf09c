// Benchmark hook for the harness: build, index size, load (deserialize) time and per-query
// latency (search + first page of 20, as the endpoint does) of the in-process searcher.
import type { DirectoryObject } from '../src/model/types.ts';
import { createAutocomplete } from '../src/query/autocomplete/searcher.ts';
import { AUTOCOMPLETE_INDEX_FILE } from '../src/store/format/dist-paths.ts';
import { buildAutocompleteFiles } from '../src/store/write/autocomplete-files.ts';

export interface AutocompleteBench {
  buildMs: number;
  indexBytes: number;
  loadMs: number;
  p50Ms: number;
  p99Ms: number;
}

export async function benchAutocomplete(
  objects: DirectoryObject[],
  queries: string[],
  options: { rounds?: number; pageSize?: number } = {},
): Promise<AutocompleteBench> {
  const rounds = options.rounds ?? 5;
  const pageSize = options.pageSize ?? 20;

  let t = performance.now();
  const files = await buildAutocompleteFiles(objects);
  const buildMs = performance.now() - t;
  const index = files[AUTOCOMPLETE_INDEX_FILE];

  // A server loads a built dist/ and carries no build garbage; collect it (when node runs with
  // --expose-gc) so that concurrent GC of the build does not land in the query timings.
  settle();
  t = performance.now();
  const ac = createAutocomplete(files[AUTOCOMPLETE_INDEX_FILE]);
  const loadMs = performance.now() - t;
  settle();

  const run = (q: string) => ac.search(q, null).page(0, pageSize);
  for (let r = 0; r < 2; r++) for (const q of queries) run(q); // warm-up: JIT
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const s = performance.now();
      run(q);
      samples.push(performance.now() - s);
    }
  }
  samples.sort((a, b) => a - b);
  const pct = (p: number) => (samples.length === 0 ? 0 : samples[Math.min(samples.length - 1, Math.ceil(p * samples.length) - 1)]);
  return {
    buildMs,
    indexBytes: new TextEncoder().encode(index).length,
    loadMs,
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
  };
}

function settle(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}
