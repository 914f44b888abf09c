// A request's query string as Django's QueryDict sees it: ordered pairs, `+` as space,
// invalid percent-escapes kept literally, invalid UTF-8 replaced, last value wins for `get`.

export class QueryParams {
  readonly pairs: ReadonlyArray<readonly [string, string]>;
  private readonly byKey = new Map<string, string[]>();

  constructor(pairs: ReadonlyArray<readonly [string, string]>) {
    this.pairs = pairs;
    for (const [k, v] of pairs) {
      const list = this.byKey.get(k);
      if (list) list.push(v);
      else this.byKey.set(k, [v]);
    }
  }

  static parse(rawQuery: string): QueryParams {
    return new QueryParams(parsePairs(rawQuery) ?? [...new URLSearchParams(rawQuery)]);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The last value given for `key`, as QueryDict.get does. */
  get(key: string): string | undefined {
    const list = this.byKey.get(key);
    return list ? list[list.length - 1] : undefined;
  }

  getAll(key: string): readonly string[] {
    return this.byKey.get(key) ?? [];
  }

  /** Distinct keys in order of first appearance. */
  keys(): string[] {
    return [...this.byKey.keys()];
  }

  get size(): number {
    return this.pairs.length;
  }
}

/**
 * The pairs of a query string as URLSearchParams reads them (application/x-www-form-urlencoded),
 * for the common query whose escapes are whole UTF-8 characters: then decodeURIComponent decodes
 * each name and value as that parser does, without building a URLSearchParams. Null for any other
 * (an invalid escape or invalid UTF-8, which decodeURIComponent refuses, or characters beyond
 * ASCII): the parser's own rules apply to those.
 */
function parsePairs(query: string): [string, string][] | null {
  // (characters beyond ASCII, as a request's target never holds: lone surrogates become U+FFFD there)
  if (NOT_ASCII.test(query)) return null;
  const pairs: [string, string][] = [];
  let from = 0;
  while (from <= query.length) {
    let end = query.indexOf('&', from);
    if (end === -1) end = query.length;
    if (end > from) {
      const eq = query.indexOf('=', from);
      const cut = eq === -1 || eq > end ? end : eq;
      const name = decodedPart(query.slice(from, cut));
      const value = cut === end ? '' : decodedPart(query.slice(cut + 1, end));
      if (name === null || value === null) return null;
      pairs.push([name, value]);
    }
    from = end + 1;
  }
  return pairs;
}

const NOT_ASCII = /[^\0-\x7f]/;

function decodedPart(text: string): string | null {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}
