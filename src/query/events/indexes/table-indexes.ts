// The filter indexes of one EventTable, over its column files as loaded: each column's lookup
// object is made on first use (a wrapper of the loaded arrays, nothing built), and kept as long
// as the table lives (a WeakMap keyed by the table, so a reloaded table drops them with it).
import type { BoolField, EventTable, TextField, TimeField } from '../../../store/format/event-table.ts';
import { idIndex, type RelationColumnData } from '../../../store/format/relation-column-file.ts';
import { OrderedColumn } from './ordered-column.ts';
import { EMPTY, iota, RowBits, unionAll, type RowSet } from './rowset.ts';
import { TextColumn } from './text-column.ts';
import { ResultCache } from '../result-cache.ts';

export interface IndexOptions {
  /**
   * Candidate lists this short are tested row by row rather than through an index, and string
   * conditions are not even estimated once a cheap one leaves so few.
   */
  fewRows: number;
}

export const DEFAULT_INDEX_OPTIONS: IndexOptions = { fewRows: 256 };

/** rows the filter result cache may hold in all, per row of the table (see `results`) */
const RESULT_ROWS_PER_ROW = 16;

/** Rows per id of a many-to-many field. */
export class RelationIndex {
  private readonly size: number;
  constructor(private readonly data: RelationColumnData) {
    this.size = data.rows;
  }

  rows(id: number): RowSet {
    const i = idIndex(this.data, id);
    return i < 0 ? EMPTY : this.data.idRows.subarray(this.data.idRowStart[i], this.data.idRowStart[i + 1]);
  }

  /** Whether `text` is the exact text of an id some event has (`03` is not, even if 3 is). */
  hasIdText(text: string): boolean {
    const id = Number(text);
    return String(id) === text && idIndex(this.data, id) >= 0;
  }

  byteSize(): number {
    let bytes = 0;
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
    let c = this.texts.get(field);
    if (!c) this.texts.set(field, (c = new TextColumn(this.table.stored.text[field], this.bits)));
    return c;
  }

  /** the rendered ISO strings of a timestamp field, as a string column */
  iso(field: TimeField): TextColumn {
    const key = `iso:${field}`;
    let c = this.texts.get(key);
    if (!c) this.texts.set(key, (c = new TextColumn(this.table.stored.iso[field], this.bits)));
    return c;
  }

  numeric(field: TimeField | 'dfp_points'): OrderedColumn {
    let c = this.ordered.get(field);
    if (!c) this.ordered.set(field, (c = new OrderedColumn(this.table.stored.ordered[field])));
    return c;
  }

  /** rows where the flag is false ([0]) and true ([1]) */
  boolRows(field: BoolField): readonly [RowSet, RowSet] {
    return this.table.stored.bool[field].rows;
  }

  relation(field: 'categories' | 'groups'): RelationIndex {
    let r = this.relations.get(field);
    if (!r) this.relations.set(field, (r = new RelationIndex(this.table.stored.relation[field])));
    return r;
  }

  /** Approximate bytes held in typed arrays by the indexes in use (strings not counted). */
  byteSize(): number {
    let bytes = this.bits.byteSize + this.scratch.byteLength + (this.allRows ? this.allRows.byteLength : 0);
    for (const c of this.texts.values()) bytes += c.indexBytes();
    for (const c of this.ordered.values()) bytes += c.byteSize();
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
