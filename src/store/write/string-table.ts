// Writes a string table's sections (src/store/format/string-table.ts).
import { jsonSection, type Section } from './sections.ts';

export function stringTableSections(values: readonly string[]): Section[] {
  const starts = new Uint32Array(values.length + 1);
  const odd: [number, string][] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    starts[i + 1] = starts[i] + v.length;
    if (!v.isWellFormed()) odd.push([i, v]);
  }
  // UTF-8 replaces a lone surrogate with U+FFFD, one code unit for one: the starts hold either way
  return [new TextEncoder().encode(values.join('')), starts, jsonSection(odd)];
}
