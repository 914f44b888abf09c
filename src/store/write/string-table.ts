// Writes a string table's sections (src/store/format/string-table.ts).
import { jsonSection, type Section } from './sections.ts';

export function stringTableSections(values: readonly string[]): Section[] {
  const n = values.length;
  // the UTF-16 starts, then the byte starts (string-table.ts)
  const starts = new Uint32Array(2 * (n + 1));
  const odd: [number, string][] = [];
  for (let i = 0; i < n; i++) {
    const v = values[i];
    starts[i + 1] = starts[i] + v.length;
    if (!v.isWellFormed()) odd.push([i, v]);
  }
  // UTF-8 replaces a lone surrogate with U+FFFD, one code unit for one: the starts hold either way
  const text = odd.length === 0 ? utf8Of(values) : new TextEncoder().encode(values.join(''));
  // the byte starts, from the UTF-8 as it is (the strings themselves are not read again: measuring
  // each would flatten those the build made by concatenation, and keep the copies)
  let at = 0;
  let units = 0;
  for (let i = 0; i < n; i++) {
    const end = starts[i + 1];
    while (units < end) {
      const lead = text[at];
      // a four-byte character is two UTF-16 units (a pair; one string's high surrogate and the
      // next one's low surrogate join into one, and both strings are read from `odd`)
      at += lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
      units += lead < 0xf0 ? 1 : 2;
    }
    starts[n + 2 + i] = at;
  }
  return [text, starts, jsonSection(odd)];
}

/** Code units joined into one string at a time, at most (a value longer than that goes alone): a young string, not one in the large-object space. */
const CHUNK_UNITS = 16 << 10;

/** `values` in consecutive runs of about CHUNK_UNITS code units, each joined. */
function* chunksOf(values: readonly string[]): Generator<string> {
  for (let i = 0; i < values.length; ) {
    let j = i + 1;
    let units = values[i].length;
    while (j < values.length && units + values[j].length <= CHUNK_UNITS) units += values[j++].length;
    yield values.slice(i, j).join('');
    i = j;
  }
}

/**
 * The UTF-8 of `values` end to end (none a lone surrogate), a few values at a time, into a buffer
 * of the bytes they take (measured a chunk at a time first). The whole joined would be a string of
 * the table's size, in memory mapped for it alone, copied once more by the encoder into a buffer
 * of its own; each value measured or written by itself would be flattened, and those the build
 * made by concatenation would keep the flat copy.
 */
function utf8Of(values: readonly string[]): Uint8Array {
  let bytes = 0;
  for (const chunk of chunksOf(values)) bytes += Buffer.byteLength(chunk);
  const out = Buffer.allocUnsafeSlow(bytes);
  let at = 0;
  for (const chunk of chunksOf(values)) at += out.write(chunk, at);
  return out;
}
