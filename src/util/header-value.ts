// Header values a program gives aula (Cache-Control) go on the wire as they are: Node's http
// refuses to send one holding anything but tab, printable ASCII and Latin-1's upper half (its
// checkInvalidHeaderChar), and fetch's Headers (workerd) refuses the same line breaks and NULs.
// Checked once where the value is taken, not found out by every answer failing as a 500.
import { printable } from './printable.ts';

const NOT_SENDABLE = /[^\t\x20-\x7e\x80-\xff]/;

/** Whether Node (and fetch's Headers) will send `value` as a header value. */
export function isHeaderValue(value: string): boolean {
  return !NOT_SENDABLE.test(value);
}

/** `value` when it can be sent as a header value; else a TypeError naming `option`. */
export function sendableHeaderValue(option: string, value: string): string {
  if (typeof value !== 'string' || !isHeaderValue(value)) {
    throw new TypeError(`aula: ${option} ${typeof value === 'string' ? `"${printable(value)}"` : String(value)} cannot be sent as a header value: printable characters only, no line breaks`);
  }
  return value;
}
