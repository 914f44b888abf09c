// The import graph of src/, read from the sources: every static `import … from`, `export … from`
// and dynamic `import('…')` with a string literal.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { LAYERS, NOT_A_MODULE } from './rules.ts';

export const SRC = join(import.meta.dirname, '../../src');

export interface ImportEdge {
  from: string; // path relative to src/
  spec: string;
  /** the target relative to src/ for a relative import, null for a package */
  to: string | null;
}

export function modules(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) {
        const rel = relative(SRC, p).split('\\').join('/');
        if (!NOT_A_MODULE.test('/' + rel)) out.push(rel);
      }
    }
  };
  walk(SRC);
  return out.sort();
}

/** Comments are blanked first, so an import named in a comment is not an edge. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])([^'"\n]+)\1/gm;

export function importsOf(file: string): ImportEdge[] {
  const text = stripComments(readFileSync(join(SRC, file), 'utf8'));
  const edges: ImportEdge[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[2];
    const to = spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), spec)) : null;
    edges.push({ from: file, spec, to });
  }
  return edges;
}

export function layerOf(file: string): string | null {
  let best: string | null = null;
  for (const prefix of Object.keys(LAYERS)) {
    if ((file === prefix || file.startsWith(prefix)) && (best === null || prefix.length > best.length)) best = prefix;
  }
  return best === null ? null : LAYERS[best];
}

/** Strongly connected components with more than one module (or a self-import): the cycles. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return out;
}
