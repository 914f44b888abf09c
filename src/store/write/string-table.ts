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
    // a lone surrogate counts the 3 bytes of the U+FFFD that UTF-8 carries in its place, as encode() writes it
    starts[n + 2 + i] = starts[n + 1 + i] + Buffer.byteLength(v, 'utf8');
    if (!v.isWellFormed()) odd.push([i, v]);
  }
  // UTF-8 replaces a lone surrogate with U+FFFD, one code unit for one: the starts hold either way
  const text = new TextEncoder().encode(values.join(''));
  if (text.byteLength !== starts[2 * n + 1]) throw new Error('a string table whose byte starts do not fit its text');
  return [text, starts, jsonSection(odd)];
}
