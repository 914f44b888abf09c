// The event rows of a source loading per need (the edge worker): each part's offsets are read
// when a row of that part is first asked for, with the part (a part read in parts: the blocks of
// the rows asked for, once the offsets say where they are), so an isolate's first answer reads
// the offsets of the parts it touches, not every row's; and each row is checked against its
// offsets when first asked for, not every row of the part. Every method that reads a row's offsets
// first makes sure its part's are in (a part not at hand yet throws FileNeeded, per-need.ts); a
// read of many rows asks at once for every part it reaches that is not at hand.
import { EventRows } from '../format/event-rows.ts';
import { partOfRow } from '../format/dist-paths.ts';
import type { RowSource } from '../format/row-source.ts';
import { gatherNeeds, zeroedAsWritten } from './per-need.ts';

export class PartedRows extends EventRows {
  private readonly loaded: Uint8Array;
  /** the rows checked against their offsets (1) */
  private readonly checked: Uint8Array;

  /**
   * `count` rows in parts whose first rows are `firsts` (then `count`: dist-paths.ts partFirsts); `load(part)` reads that part's offsets into `starts`
   * and its rows' line starts into `lineStarts` (checking them), or throws; `check(row)`, once
   * its part is loaded, checks a row's bytes against its offsets before it is first read, or throws;
   * `fetch(rows)`, once their parts are loaded, makes sure the bytes of rows not checked yet are at
   * hand (a part read in parts: one FileNeeded for all of them), or throws.
   */
  constructor(
    source: RowSource,
    starts: Uint32Array,
    lineStarts: Float64Array,
    private readonly firsts: readonly number[],
    private readonly load: (part: number) => void,
    private readonly check: (row: number) => void,
    private readonly fetch?: (rows: readonly number[]) => void,
  ) {
    // (over every row, filled a part at a time: memory taken as the parts come, zeroedAsWritten)
    super(source, starts, lineStarts, new Uint32Array(zeroedAsWritten(lineStarts.length * Uint32Array.BYTES_PER_ELEMENT)));
    this.loaded = new Uint8Array(firsts.length - 1);
    this.checked = new Uint8Array(zeroedAsWritten(lineStarts.length));
  }

  private need(row: number): void {
    if (this.checked[row] === 1) return;
    this.loadPart(partOfRow(this.firsts, row));
    this.check(row);
    this.checked[row] = 1;
  }

  override willRead(rows: ArrayLike<number> | null, from: number, to: number): void {
    this.needAll(rows, from, to);
  }

  /** Every part the rows reach: those not at hand yet asked for in one FileNeeded. */
  private needAll(rows: ArrayLike<number> | null, from: number, to: number): void {
    let missing: Set<number> | null = null;
    for (let i = from; i < to; i++) {
      const part = partOfRow(this.firsts, rows ? rows[i] : i);
      if (this.loaded[part] === 0) (missing ??= new Set()).add(part);
    }
    if (missing !== null) gatherNeeds([...missing].map((part) => () => this.loadPart(part)));
    if (this.fetch !== undefined) {
      const unchecked: number[] = [];
      for (let i = from; i < to; i++) {
        const row = rows ? rows[i] : i;
        if (this.checked[row] === 0) unchecked.push(row);
      }
      if (unchecked.length > 0) this.fetch(unchecked);
    }
    for (let i = from; i < to; i++) this.need(rows ? rows[i] : i);
  }

  private loadPart(part: number): void {
    if (this.loaded[part] === 0) {
      this.load(part);
      this.noteLengths(this.firsts[part], this.firsts[part + 1]);
      this.loaded[part] = 1;
    }
  }

  override byteLength(row: number): number {
    this.need(row);
    return super.byteLength(row);
  }

  override bytes(row: number): Buffer {
    this.need(row);
    return super.bytes(row);
  }

  override eachRow(rows: ArrayLike<number> | null, from: number, to: number, visit: (row: number, bytes: Buffer) => void): void {
    this.needAll(rows, from, to);
    super.eachRow(rows, from, to, visit);
  }

  override joinRows(rows: ArrayLike<number> | null, from: number, to: number, head: Uint8Array, separator: number, tail: Uint8Array): Buffer {
    this.needAll(rows, from, to);
    return super.joinRows(rows, from, to, head, separator, tail);
  }

  override readRuns(rows: ArrayLike<number> | null, from: number, to: number, target: Uint8Array, at: number): number {
    this.needAll(rows, from, to);
    return super.readRuns(rows, from, to, target, at);
  }

  override runsLength(rows: ArrayLike<number> | null, from: number, to: number): number {
    this.needAll(rows, from, to);
    return super.runsLength(rows, from, to);
  }

  override projectInto(...args: Parameters<EventRows['projectInto']>): void {
    this.need(args[0]);
    super.projectInto(...args);
  }

  override replaceValueInto(...args: Parameters<EventRows['replaceValueInto']>): void {
    this.need(args[0]);
    super.replaceValueInto(...args);
  }

  override valueSpan(row: number, field: number): [number, number] {
    this.need(row);
    return super.valueSpan(row, field);
  }

  override lineStart(row: number): number {
    this.need(row);
    return super.lineStart(row);
  }
}
