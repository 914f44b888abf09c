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
    return new QueryParams([...new URLSearchParams(rawQuery)]);
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
