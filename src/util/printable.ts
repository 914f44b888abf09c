// Text from outside (file names, paths, error causes) made safe to print on a terminal or into a
// log: control characters would let a file name move the cursor, recolour the screen or forge a
// log line. They are written as JSON writes them (\n, \t, \u001b); everything else is unchanged.

// C0 controls, DEL, C1 controls (0x9b is a one-byte CSI), the Unicode line and paragraph
// separators that some log viewers break lines at, and lone surrogates.
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT: Record<string, string> = { '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
