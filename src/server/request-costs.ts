// What requests of one shape cost, as the API core counted it. A shape is what a request's cost
// mostly depends on and its values mostly do not: the path, the parameter names (with their
// lookups, `teaser__iregex`), how the answer is represented (`format`, a browser's Accept) and the
// order of magnitude of `limit`. The cheap-first scheduler (cheap-first.ts) answers requests of a
// shape known to be expensive after the cheap ones waiting.
//
// Learned, not listed: every answer's counted work is recorded against its shape, so a new filter
// or a change of the data moves a shape between the two queues with no list to keep. A shape not
// seen yet counts as cheap: its first request is answered at once, bounded like every request by
// the work limit, and teaches the shape's cost.

/** Shapes remembered; the least recently answered is forgotten first. */
export const MAX_SHAPES = 4096;

/** Work (units, about 1 ns each) above which a shape's requests are answered after the cheap ones. */
export const EXPENSIVE_UNITS = 2_000_000;

/** characters of a shape kept: a longer one (hundreds of parameter names) is cut, not stored whole */
const MAX_SHAPE_CHARS = 512;

/** The shape of a request: equal for requests whose cost the core counts alike. */
export function shapeOf(method: string, path: string, query: string, accept: string | undefined): string {
  const names: string[] = [];
  let format = '';
  let limit = 0;
  if (query !== '') {
    for (const pair of query.split('&')) {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      if (name === 'format') format = pair.slice(eq + 1, eq + 9);
      // 1, 10, 100, 1000: a page's size in digits
      else if (name === 'limit') limit = Math.min(pair.length - eq - 1, 5);
      names.push(name);
    }
    names.sort();
  }
  const html = accept !== undefined && accept.includes('html') ? 'h' : '';
  const shape = `${method} ${path} ${format}${html}${limit} ${names.join('&')}`;
  return shape.length > MAX_SHAPE_CHARS ? shape.slice(0, MAX_SHAPE_CHARS) : shape;
}

export interface RequestCosts {
  /** whether requests of this shape were expensive when last answered */
  expensive(shape: string): boolean;
  /** records the work the core counted for one answer of this shape */
  record(shape: string, units: number): void;
  readonly size: number;
}

export function requestCosts(limits = { shapes: MAX_SHAPES, expensiveUnits: EXPENSIVE_UNITS }): RequestCosts {
  // insertion order is recency order: a recorded shape is moved to the end
  const units = new Map<string, number>();
  return {
    expensive: (shape) => (units.get(shape) ?? 0) > limits.expensiveUnits,
    record(shape, used) {
      const before = units.get(shape);
      if (before !== undefined) units.delete(shape);
      else if (units.size >= limits.shapes) units.delete(units.keys().next().value!);
      // an answer the core kept (a cache hit) costs nothing: halving the estimate, not dropping
      // it, keeps an expensive shape expensive across a few of those
      units.set(shape, Math.max(used, (before ?? 0) / 2));
    },
    get size() {
      return units.size;
    },
  };
}
