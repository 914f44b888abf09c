// One line per request on stdout (`serve --log text|json`, off with `--quiet`). Lines are
// collected and written once per turn of the event loop: one write per burst, not per request.

export type LogFormat = 'text' | 'json';

export interface AccessEntry {
  method: string;
  /** the request target as sent (path and query) */
  target: string;
  status: number;
  /** body bytes sent */
  bytes: number;
  ms: number;
}

/** Printable ASCII only: a request target cannot inject a line or a terminal escape into the log. */
const PRINTABLE = /^[\x21-\x7e]*$/;
const printable = (text: string) =>
  PRINTABLE.test(text) ? text : text.replace(/[^\x21-\x7e]/gu, (c) => Array.from(Buffer.from(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));

export function formatEntry(format: LogFormat, entry: AccessEntry, time: Date | string): string {
  const ms = Math.round(entry.ms * 10) / 10;
  const iso = typeof time === 'string' ? time : time.toISOString();
  if (format === 'json') {
    return JSON.stringify({ time: iso, method: entry.method, path: entry.target, status: entry.status, bytes: entry.bytes, ms });
  }
  return `${iso} ${printable(entry.method)} ${printable(entry.target)} ${entry.status} ${entry.bytes} ${ms}ms`;
}

export function accessLogger(format: LogFormat, write: (chunk: string) => void): (entry: AccessEntry) => void {
  let lines: string[] = [];
  const flush = () => {
    const chunk = `${lines.join('\n')}\n`;
    lines = [];
    write(chunk);
  };
  // the time as text, made once per millisecond: under load many lines share one
  let stampMs = -1;
  let stamp = '';
  return (entry) => {
    if (lines.length === 0) setImmediate(flush);
    const now = Date.now();
    if (now !== stampMs) {
      stampMs = now;
      stamp = new Date(now).toISOString();
    }
    lines.push(formatEntry(format, entry, stamp));
  };
}
