// The import rules of rules.ts, checked over every module of src/.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cycles, importsOf, layerOf, modules, SRC } from './graph.ts';
import { ALLOWED, BUILD_PACKAGES, SERVE_LAYERS } from './rules.ts';

const files = modules();

/** An import from one module of src/ to another that the layers do not allow. */
function forbidden(from: string, to: string): boolean {
  const a = layerOf(from)!;
  const b = layerOf(to);
  return b !== null && b !== a && !ALLOWED[a].includes(b);
}
const edges = files.flatMap(importsOf);

describe('src/ import rules', () => {
  it('finds the modules and their imports', () => {
    // guards the checks below against a parser that silently finds nothing
    expect(files.length).toBeGreaterThan(80);
    expect(edges.filter((e) => e.to !== null).length).toBeGreaterThan(200);
  });

  it('puts every module in a layer', () => {
    expect(files.filter((f) => layerOf(f) === null)).toEqual([]);
  });

  it('resolves every relative import to a file', () => {
    const dangling = edges.filter((e) => e.to !== null && !existsSync(join(SRC, e.to)));
    expect(dangling.map((e) => `${e.from} → ${e.spec}`)).toEqual([]);
  });

  it('imports only from the same or an allowed lower layer', () => {
    const wrong = edges
      .filter((e) => e.to !== null)
      .filter((e) => forbidden(e.from, e.to!))
      .map((e) => `${e.from} (${layerOf(e.from)}) → ${e.to} (${layerOf(e.to!)})`);
    expect(wrong).toEqual([]);
  });

  it('keeps build-time packages out of the serve layers', () => {
    const wrong = edges
      .filter((e) => e.to === null && SERVE_LAYERS.includes(layerOf(e.from)!))
      .filter((e) => BUILD_PACKAGES.some((p) => e.spec === p || e.spec.startsWith(`${p}/`)))
      .map((e) => `${e.from} → ${e.spec}`);
    expect(wrong).toEqual([]);
  });

  it('has no import cycles', () => {
    const graph = new Map<string, string[]>();
    for (const f of files) graph.set(f, []);
    for (const e of edges) if (e.to !== null && graph.has(e.to)) graph.get(e.from)!.push(e.to);
    expect(cycles(graph)).toEqual([]);
  });

  it('detects a cycle and a forbidden edge when there is one', () => {
    // the checks themselves: a two-module cycle is found, an upward import is refused
    expect(cycles(new Map([['a', ['b']], ['b', ['a']], ['c', []]]))).toEqual([['a', 'b']]);
    expect(forbidden('store/read/stored-data.ts', 'query/dataset.ts')).toBe(true);
    expect(forbidden('api/core.ts', 'content/load.ts')).toBe(true);
    expect(forbidden('query/dataset.ts', 'store/read/stored-data.ts')).toBe(false);
  });
});
