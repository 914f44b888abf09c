// All filter indexes of one EventTable, each built on first use and kept as long as the table
// lives (a WeakMap keyed by the table, so a rebuilt table drops the old indexes with it).
import { BOOL_FIELDS, TEXT_FIELDS, TIME_FIELDS, type BoolField, type EventTable, type TextField, type TimeField } from '../../../store/format/event-table.ts';
import { OrderedColumn } from './ordered-column.ts';
import { EMPTY, iota, RowBits, unionAll, type RowSet } from './rowset.ts';
import { TextColumn } from './text-column.ts';
import { ResultCache } from '../result-cache.ts';

export interface IndexOptions {
  /**
   * Byte budget of one text column's trigram postings, per distinct value: 64 B/value is 16
   * postings per value, ≤ 6.4 MB per column at 100k values. See trigram.ts for what it trades.
   */
  trigramBytesPerValue: number;
  /** lower bound of that budget, so that small tables always get a complete index */
  trigramMinBytes: number;
  /** text columns with at most this many distinct values are scanned, never trigram-indexed */
  scanBelowValues: number;
  /**
   * Candidate lists this short are tested row by row rather than through an index, and string
   * conditions are not even estimated (which may build an index) once a cheap one leaves so few.
   */
  fewRows: number;
}

export const DEFAULT_INDEX_OPTIONS: IndexOptions = { trigramBytesPerValue: 160, trigramMinBytes: 1 << 20, scanBelowValues: 256, fewRows: 256 };

/** rows the filter result cache may hold in all, per row of the table (see `results`) */
const RESULT_ROWS_PER_ROW = 16;

/** Rows per id of a many-to-many field. */
export class RelationIndex {
  readonly rowsById: ReadonlyMap<number, RowSet>;
  readonly idTexts: ReadonlySet<string>;
  private readonly size: number;
  constructor(lists: readonly (readonly number[])[]) {
    this.size = lists.length;
    const acc = new Map<number, number[]>();
    for (let r = 0; r < lists.length; r++) {
      for (const id of lists[r]) {
        let rows = acc.get(id);
        if (!rows) acc.set(id, (rows = []));
        if (rows[rows.length - 1] !== r) rows.push(r); // an id listed twice on one event
      }
    }
    const rowsById = new Map<number, RowSet>();
    for (const [id, rows] of acc) rowsById.set(id, Uint32Array.from(rows));
    this.rowsById = rowsById;
    this.idTexts = new Set([...acc.keys()].map(String));
  }
  rows(id: number): RowSet {
    return this.rowsById.get(id) ?? EMPTY;
  }

  byteSize(): number {
    let bytes = 0;
    for (const r of this.rowsById.values()) bytes += r.byteLength;
    for (const r of this.unions.values()) bytes += r.byteLength;
    return bytes;
  }

  // Unions of several ids repeat (there are few categories), and a union costs a pass over its
  // lists, so the last ones are kept, bounded like the span cache.
  private readonly unions = new Map<string, RowSet>();
  private unionRows = 0;

  /** Rows having any of `ids` (ascending, each once). */
  union(ids: readonly number[], bits: RowBits): RowSet {
    if (ids.length === 1) return this.rows(ids[0]);
    const key = [...ids].sort((a, b) => a - b).join(',');
    const hit = this.unions.get(key);
    if (hit) {
      this.unions.delete(key);
      this.unions.set(key, hit);
      return hit;
    }
    const rows = unionAll(ids.map((id) => this.rows(id)), bits);
    this.unions.set(key, rows);
    this.unionRows += rows.length;
    for (const [k, r] of this.unions) {
      if (this.unions.size <= 64 && this.unionRows <= 4 * this.size) break;
      this.unions.delete(k);
      this.unionRows -= r.length;
    }
    return rows;
  }
}

export class TableIndexes {
  /** shared scratch bit set over rows; every user drains it before returning */
  readonly bits: RowBits;
  /**
   * Shared scratch row buffer for branch-free sieves, which write every candidate and advance
   * only on a match; results are copied out of it (never handed out as views).
   */
  readonly scratch: Uint32Array;
  /**
   * the last costly filter results, by filter (see result-cache.ts): 64 of them, ≤ 16 rows' worth
   * per row in all (4 bytes each: 6.4 MB at 100k events). At 4, two dozen filter combinations
   * paged at random (`dfp_points__gte` × `register`, ~30k rows each) did not fit: half the pages
   * sieved 50k candidates again.
   */
  readonly results: ResultCache;
  private allRows: RowSet | null = null;
  private readonly texts = new Map<string, TextColumn>();
  private readonly ordered = new Map<string, OrderedColumn>();
  private readonly bools = new Map<string, [RowSet, RowSet]>();
  private readonly relations = new Map<string, RelationIndex>();

  constructor(
    readonly table: EventTable,
    readonly options: IndexOptions = DEFAULT_INDEX_OPTIONS,
  ) {
    this.bits = new RowBits(table.length);
    this.scratch = new Uint32Array(table.length);
    this.results = new ResultCache(64, Math.max(4096, RESULT_ROWS_PER_ROW * table.length));
  }

  get length(): number {
    return this.table.length;
  }

  /** 0..length-1, so that a row range can be handed out as a view */
  get all(): RowSet {
    return (this.allRows ??= iota(this.table.length));
  }

  text(field: TextField): TextColumn {
    return this.textColumn(field, this.table.columns.text[field]);
  }

  /** the rendered ISO strings of a timestamp field, as a string column */
  iso(field: TimeField): TextColumn {
    return this.textColumn(`iso:${field}`, this.table.columns.iso[field]);
  }

  private textColumn(key: string, column: readonly (string | null)[]): TextColumn {
    let c = this.texts.get(key);
    if (!c) {
      const { trigramBytesPerValue, trigramMinBytes } = this.options;
      c = new TextColumn(column, this.bits, (n) => Math.max(trigramMinBytes, n * trigramBytesPerValue));
      this.texts.set(key, c);
    }
    return c;
  }

  numeric(field: TimeField | 'dfp_points'): OrderedColumn {
    let c = this.ordered.get(field);
    if (!c) {
      const cols = this.table.columns;
      c = new OrderedColumn(field === 'dfp_points' ? cols.dfp_points : cols.time[field]);
      this.ordered.set(field, c);
    }
    return c;
  }

  /** rows where the flag is false ([0]) and true ([1]) */
  boolRows(field: BoolField): readonly [RowSet, RowSet] {
    let b = this.bools.get(field);
    if (!b) {
      const col = this.table.columns.bool[field];
      const t: number[] = [];
      const f: number[] = [];
      for (let r = 0; r < col.length; r++) (col[r] ? t : f).push(r);
      b = [Uint32Array.from(f), Uint32Array.from(t)];
      this.bools.set(field, b);
    }
    return b;
  }

  relation(field: 'categories' | 'groups'): RelationIndex {
    let r = this.relations.get(field);
    if (!r) {
      r = new RelationIndex(this.table.columns[field]);
      this.relations.set(field, r);
    }
    return r;
  }

  /** Builds every index now rather than on first use. */
  prepare(): void {
    for (const step of this.prepareSteps()) while (step() === true);
  }

  /**
   * The builds of prepare(), in order, each a separate step (one column's value ids, its sort,
   * its folded text, its trigrams …), so that a server can run them between requests. A step
   * that returns true has more to do and is called again (the trigram index, a slice at a time).
   */
  prepareSteps(): (() => boolean | void)[] {
    const steps: (() => boolean | void)[] = [() => void this.all];
    for (const f of TEXT_FIELDS) {
      steps.push(() => this.text(f).prepare(false));
      steps.push(() => {
        const c = this.text(f);
        if (c.valueCount > this.options.scanBelowValues) void c.folded;
      });
      steps.push(() => {
        const c = this.text(f);
        return c.valueCount > this.options.scanBelowValues && c.trigramStep();
      });
      steps.push(() => {
        const c = this.text(f);
        c.prepare(c.valueCount > this.options.scanBelowValues);
      });
    }
    for (const f of TIME_FIELDS) {
      steps.push(() => this.iso(f).prepare(false));
      steps.push(() => void this.numeric(f).shape);
    }
    steps.push(() => void this.numeric('dfp_points').shape);
    for (const f of BOOL_FIELDS) steps.push(() => void this.boolRows(f));
    steps.push(() => void this.relation('categories'));
    steps.push(() => void this.relation('groups'));
    return steps;
  }

  /** Approximate bytes held in typed arrays by the built indexes (strings not counted). */
  byteSize(): number {
    let bytes = this.bits.byteSize + this.scratch.byteLength + (this.allRows ? this.allRows.byteLength : 0);
    for (const c of this.texts.values()) bytes += c.indexBytes();
    for (const c of this.ordered.values()) bytes += c.byteSize();
    for (const [f, t] of this.bools.values()) bytes += f.byteLength + t.byteLength;
    for (const r of this.relations.values()) bytes += r.byteSize();
    return bytes;
  }
}

const cache = new WeakMap<EventTable, TableIndexes>();

export function indexesFor(table: EventTable): TableIndexes {
  let ix = cache.get(table);
  if (!ix) {
    ix = new TableIndexes(table);
    cache.set(table, ix);
  }
  return ix;
}
