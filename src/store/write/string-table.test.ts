import { describe, expect, it } from 'vitest';
import { stringTableSections } from './string-table.ts';

/** The text section as the whole joined and encoded gives it. */
const joinedUtf8 = (values: string[]) => Buffer.from(new TextEncoder().encode(values.join('')));

describe('stringTableSections', () => {
  it('writes the UTF-8 of the values end to end, over many chunks, whatever their characters', () => {
    const values = Array.from({ length: 5000 }, (_, i) => ['', 'plain', 'Grüße', '日本語', '😀 emoji', 'x'.repeat(i % 97)][i % 6] + i);
    // one longer than a chunk, among them
    values.splice(2500, 0, 'ä'.repeat(40_000));
    const [text, starts] = stringTableSections(values) as [Uint8Array, Uint32Array];
    expect(Buffer.from(text).equals(joinedUtf8(values))).toBe(true);
    // the byte starts follow the bytes
    const n = values.length;
    expect(starts[n + 2 + n - 1]).toBe(text.byteLength);
    expect(Buffer.from(text.subarray(starts[n + 1 + 2501], starts[n + 1 + 2502])).toString()).toBe(values[2501]);
  });

  it('writes lone surrogates as the whole joined does: a pair split between two values joins', () => {
    const values = ['a\ud83d', '\ude00b', 'c', '\udfff'];
    const [text] = stringTableSections(values) as [Uint8Array];
    expect(Buffer.from(text).equals(joinedUtf8(values))).toBe(true);
  });
});
