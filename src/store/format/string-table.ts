// A list of strings as three sections of a binary file: their text, and where each starts in it.
//
//   text     the strings concatenated, as UTF-8
//   starts   u32 × (count + 1): where string i starts in the decoded text, in UTF-16 code units
//            (string i is text[starts[i] .. starts[i+1])); then u32 × (count + 1): where it starts
//            in the UTF-8, in bytes (string i is the UTF-8 bytes[byteStarts[i] .. byteStarts[i+1]))
//   odd      UTF-8 JSON: [[i, string], …] for the strings that are not well-formed UTF-16 (a lone
//            surrogate, which UTF-8 cannot carry): their text holds U+FFFD in its place, and the
//            reader takes them from here. Usually [].
//
// The server's reader decodes the text with one TextDecoder call and hands out each string as a
// slice of it when first asked for: loading a list of 100k strings is one decode, not 100k
// allocations (a parse per string would dominate the server's start). A reader that needs a few
// strings of a long list (an edge isolate's first answer, which checks a lookup's candidates or
// binary-searches an order) decodes each alone by its byte starts instead of the whole text. The decoded text is held once,
// as V8 holds any string: one byte per character when every character fits Latin-1, two when
// one does not. The strings are not split by that (a list whose few strings have a dash or a
// quotation mark is held at two bytes per character), which costs at most the list's text once
// more and keeps the reader a single decode.

/** What a column's strings are read through: string i, made when first asked for. */
export interface StringList {
  readonly length: number;
  at(i: number): string;
  /**
   * The indexes (ascending) of the strings that contain `needle`, found in their whole text at
   * once (decoded, or the UTF-8 of a reader that has not decoded it: an edge isolate's), without
   * making each string; `afford` is asked, with the text's UTF-8 length, whether to search
   * before the search is made. Undefined, or null where `afford` declines or for a needle it
   * cannot look for so, where the caller tests the strings one by one.
   */
  containing?(needle: string, afford: (bytes: number) => boolean): Uint32Array | null;
  /**
   * Decodes the whole text now, where the reader left that for later (strings decoded alone
   * until then); throws what a list whose strings do not fit their text throws.
   */
  decodeAll?(): void;
}

/** A plain array as a StringList (the build's side, tests). */
export function stringList(values: readonly string[]): StringList {
  return { length: values.length, at: (i) => values[i] };
}
