import { describe, expect, it } from 'vitest';
import { fieldOffsets } from './field-offsets.ts';

const FIELDS = ['id', 'title', 'media', 'body', 'end'];
const KEYS = FIELDS.map((f) => Buffer.from(`"${f}":`));

/** The offsets as a field-by-field serialization computes them: each `"key":value` part's byte length plus its comma. */
function expected(obj: Record<string, unknown>): number[] {
  const starts: number[] = [];
  let at = 1;
  for (const f of FIELDS) {
    starts.push(at);
    at += Buffer.byteLength(`"${f}":${JSON.stringify(obj[f])}`) + 1;
  }
  starts.push(at);
  return starts;
}

function scan(json: string, padding = 0): number[] | false {
  // the row somewhere inside a larger buffer, as in a batch of rows
  const bytes = Buffer.concat([Buffer.alloc(padding, 0x22), Buffer.from(json), Buffer.from('}"\\')]);
  const starts: number[] = [];
  return fieldOffsets(bytes, padding, padding + Buffer.byteLength(json), KEYS, starts) && starts;
}

const TRICKY = [
  '', 'plain', 'a "quoted" word', 'ends in a backslash \\', '\\"', '\\\\"', 'braces } ] { [ and , commas',
  '"id":1,"title":"fake"', 'Öl „Zitat“ 🎉 ä', '\u2028', 'line\nbreak\ttab\u0001', '}',
];

describe('fieldOffsets', () => {
  it('finds every field of JSON.stringify output, whatever its values hold', () => {
    const values: unknown[] = [null, 0, -1.5e-7, true, false, [], {}, [1, [2, [3]], { a: '}' }], { x: { y: ['"', '\\'] } }, ...TRICKY];
    for (const [i, v] of values.entries()) {
      for (const field of FIELDS) {
        const obj: Record<string, unknown> = { id: i, title: 't', media: [], body: '<p>b</p>', end: null, [field]: v };
        expect(scan(JSON.stringify(obj), i % 3), `${field} = ${JSON.stringify(v)}`).toEqual(expected(obj));
      }
    }
  });

  it('refuses a row whose fields are missing, extra, reordered or renamed, or that is cut short', () => {
    const obj = { id: 1, title: 'x', media: [{ a: 1 }], body: 'b', end: 2 };
    expect(scan(JSON.stringify(obj))).toEqual(expected(obj));
    const { end: _, ...missing } = obj;
    expect(scan(JSON.stringify(missing))).toBe(false);
    expect(scan(JSON.stringify({ ...obj, extra: 1 }))).toBe(false);
    // same key lengths, another order
    expect(scan(JSON.stringify({ title: 'x', id: 1, media: [], body: 'b', end: 2 }))).toBe(false);
    expect(scan(JSON.stringify({ id: 1, title: 'x', media: [], bodx: 'b', end: 2 }))).toBe(false);
    const json = JSON.stringify(obj);
    for (let cut = 1; cut < json.length; cut++) expect(scan(json.slice(0, cut)), json.slice(0, cut)).toBe(false);
    expect(scan(`[${json}]`)).toBe(false);
  });
});
