// A bound on the bytes of a request head as they arrive on the wire. node's `maxHeaderSize` counts
// only the bytes its parser hands over — the request target and each header's name and value — not
// the request line's method, spaces and version, a line's `:` and CR LF, the whitespace around a
// value, nor the empty lines it skips before a request line. So 16,300 empty headers (65 KB on the
// wire) pass its limit, and whitespace inside a head passes it however long (a megabyte before a
// header's value, a hundred megabytes of empty lines before a request line). Here every
// byte of each head counts, from the first after the previous request to the end of the empty
// line that closes it, and a head over the limit is refused at the chunk that passes it.
//
// To know where each head starts, the scanner follows the framing of what comes between heads as
// node's parser (llhttp) does: a Content-Length body, a chunked body and its trailers (counted as
// a head of their own), nothing after a CONNECT head (the connection is handed over). It holds a
// few numbers per connection, never the bytes. Where a request is one llhttp refuses (a bare LF,
// an invalid length), node answers 400 and closes, so the scanner need not follow it.
import type { Socket } from 'node:net';

/** The most bytes a request head may have on the wire: request line, header lines, the empty line. */
export const MAX_HEAD_BYTES = 16 * 1024;

const CR = 13;
const LF = 10;
const SP = 32;
const HTAB = 9;
const COLON = 58;
const SEMICOLON = 59;
const COMMA = 44;

const CONTENT_LENGTH = Buffer.from('content-length');
const TRANSFER_ENCODING = Buffer.from('transfer-encoding');
const CONNECT = Buffer.from('CONNECT ');

/** Where the scanner is; the phases up to TransferEncoding are a head's bytes (scan counts them). */
const Phase = {
  /** before a request line: the empty lines llhttp skips */
  Start: 0,
  RequestLine: 1,
  /** the start of a header (or trailer) line */
  LineStart: 2,
  /** the CR of the empty line that ends the head; its LF next */
  EmptyLine: 3,
  Name: 4,
  /** the rest of a line that says nothing about the framing */
  Skip: 5,
  ContentLength: 6,
  TransferEncoding: 7,
  Body: 8,
  ChunkSize: 9,
  ChunkSizeEnd: 10,
  ChunkExtension: 11,
  ChunkData: 12,
  ChunkDataEnd: 13,
  /** after CONNECT or a request llhttp refuses: nothing more is counted */
  Through: 14,
} as const;
type Phase = (typeof Phase)[keyof typeof Phase];

/** Hex digit value, or -1. */
function hexValue(byte: number): number {
  if (byte >= 48 && byte <= 57) return byte - 48;
  const lower = byte | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * Follows one connection's bytes and counts each request head's. `scan` returns false from the
 * chunk in which a head passes `limit` bytes on.
 */
export class HeadScanner {
  private phase: Phase = Phase.Start;
  /** bytes of the head (or trailer section) so far */
  private head = 0;
  private over = false;
  private trailers = false;
  /** how far the request line's first bytes match `CONNECT ` (-1: they do not) */
  private connectAt = 0;
  /** header name matching: how many bytes matched, and which names still can */
  private nameAt = 0;
  private mayBeLength = false;
  private mayBeEncoding = false;
  /** the framing the head declares */
  private length = -1;
  private badLength = false;
  private encoded = false;
  /** the last transfer coding written (lower case, at most 8 letters kept) */
  private coding = '';
  private codingTooLong = false;
  /** bytes left of a body or chunk */
  private left = 0;

  constructor(private readonly limit = MAX_HEAD_BYTES) {}

  scan(chunk: Uint8Array): boolean {
    if (this.over) return false;
    let i = 0;
    const end = chunk.length;
    while (i < end) {
      const from = i;
      // a step stays within one phase: the phase it starts in says whose bytes it took
      const inHead = this.phase <= Phase.TransferEncoding;
      i = this.step(chunk, i, end);
      if (inHead) {
        this.head += i - from;
        if (this.head > this.limit) {
          this.over = true;
          return false;
        }
        if (this.ended) {
          this.ended = false;
          this.head = 0;
        }
      }
    }
    return true;
  }

  /** the step just taken ended a head: the next one counts from zero */
  private ended = false;

  /** Takes bytes from `i` on, up to the end of the current phase or of the chunk; returns where it stopped. */
  private step(chunk: Uint8Array, i: number, end: number): number {
    switch (this.phase) {
      case Phase.Start: {
        while (i < end && (chunk[i] === CR || chunk[i] === LF)) i++;
        if (i < end) this.beginRequest();
        return i;
      }
      case Phase.RequestLine: {
        while (this.connectAt >= 0 && this.connectAt < CONNECT.length && i < end) {
          this.connectAt = chunk[i] === CONNECT[this.connectAt] ? this.connectAt + 1 : -1;
          if (chunk[i] === LF) return this.endLine(i + 1);
          i++;
        }
        const lf = chunk.indexOf(LF, i);
        return lf === -1 ? end : this.endLine(lf + 1);
      }
      case Phase.LineStart: {
        if (chunk[i] === CR) {
          this.phase = Phase.EmptyLine;
          return i + 1;
        }
        this.phase = Phase.Name;
        this.nameAt = 0;
        this.mayBeLength = !this.trailers;
        this.mayBeEncoding = !this.trailers;
        return i;
      }
      case Phase.EmptyLine: {
        if (chunk[i] !== LF) {
          this.phase = Phase.Through;
          return i;
        }
        this.endHead();
        return i + 1;
      }
      case Phase.Name: {
        for (; i < end; i++) {
          const byte = chunk[i];
          if (byte === COLON) {
            const matched = this.nameAt;
            this.phase =
              this.mayBeLength && matched === CONTENT_LENGTH.length ? Phase.ContentLength
              : this.mayBeEncoding && matched === TRANSFER_ENCODING.length ? Phase.TransferEncoding
              : Phase.Skip;
            if (this.phase === Phase.TransferEncoding) {
              this.encoded = true;
              this.coding = '';
              this.codingTooLong = false;
            }
            return i + 1;
          }
          const lower = byte | 0x20;
          this.mayBeLength &&= CONTENT_LENGTH[this.nameAt] === lower;
          this.mayBeEncoding &&= TRANSFER_ENCODING[this.nameAt] === lower;
          this.nameAt++;
          if (!this.mayBeLength && !this.mayBeEncoding) {
            this.phase = Phase.Skip;
            return i + 1;
          }
        }
        return i;
      }
      case Phase.Skip: {
        const lf = chunk.indexOf(LF, i);
        return lf === -1 ? end : this.endLine(lf + 1);
      }
      case Phase.ContentLength: {
        for (; i < end; i++) {
          const byte = chunk[i];
          if (byte === LF) return this.endLine(i + 1);
          if (byte >= 48 && byte <= 57) {
            this.length = (this.length < 0 ? 0 : this.length) * 10 + (byte - 48);
            if (this.length > Number.MAX_SAFE_INTEGER) this.badLength = true;
          } else if (byte !== SP && byte !== HTAB && byte !== CR) {
            this.badLength = true;
          }
        }
        return i;
      }
      case Phase.TransferEncoding: {
        for (; i < end; i++) {
          const byte = chunk[i];
          if (byte === LF) return this.endLine(i + 1);
          if (byte === COMMA) {
            this.coding = '';
            this.codingTooLong = false;
          } else if (byte !== SP && byte !== HTAB && byte !== CR) {
            if (this.coding.length < 8) this.coding += String.fromCharCode(byte | 0x20);
            else this.codingTooLong = true;
          }
        }
        return i;
      }
      case Phase.Body: {
        const take = Math.min(this.left, end - i);
        this.left -= take;
        if (this.left === 0) this.phase = Phase.Start;
        return i + take;
      }
      case Phase.ChunkSize: {
        for (; i < end; i++) {
          const byte = chunk[i];
          const digit = hexValue(byte);
          if (digit >= 0) {
            this.left = this.left * 16 + digit;
            if (this.left > Number.MAX_SAFE_INTEGER) this.phase = Phase.Through;
            continue;
          }
          this.phase = byte === SEMICOLON ? Phase.ChunkExtension : byte === CR ? Phase.ChunkSizeEnd : Phase.Through;
          return i + 1;
        }
        return i;
      }
      case Phase.ChunkExtension: {
        const lf = chunk.indexOf(LF, i);
        if (lf === -1) return end;
        this.endChunkSize();
        return lf + 1;
      }
      case Phase.ChunkSizeEnd: {
        if (chunk[i] !== LF) this.phase = Phase.Through;
        else this.endChunkSize();
        return i + 1;
      }
      case Phase.ChunkData: {
        const take = Math.min(this.left, end - i);
        this.left -= take;
        i += take;
        if (this.left > 0) return i;
        // the chunk's CR LF
        this.phase = Phase.ChunkDataEnd;
        this.left = 2;
        return i;
      }
      case Phase.ChunkDataEnd: {
        if (chunk[i] !== (this.left === 2 ? CR : LF)) this.phase = Phase.Through;
        else if (--this.left === 0) this.phase = Phase.ChunkSize;
        return i + 1;
      }
      case Phase.Through:
        return end;
    }
  }

  private beginRequest(): void {
    this.phase = Phase.RequestLine;
    this.connectAt = 0;
    this.length = -1;
    this.badLength = false;
    this.encoded = false;
    this.trailers = false;
  }

  private endLine(next: number): number {
    this.phase = Phase.LineStart;
    return next;
  }

  private endChunkSize(): void {
    if (this.left > 0) {
      this.phase = Phase.ChunkData;
    } else {
      // the last chunk: trailer lines, then an empty line, are a head of their own
      this.phase = Phase.LineStart;
      this.trailers = true;
    }
  }

  private endHead(): void {
    this.ended = true;
    if (this.trailers) {
      this.phase = Phase.Start;
    } else if (this.connectAt === CONNECT.length) {
      this.phase = Phase.Through;
    } else if (this.encoded) {
      // llhttp refuses a request whose last transfer coding is not chunked
      this.phase = this.coding === 'chunked' && !this.codingTooLong ? Phase.ChunkSize : Phase.Through;
      this.left = 0;
    } else if (this.length > 0 && !this.badLength) {
      this.phase = Phase.Body;
      this.left = this.length;
    } else {
      this.phase = this.badLength ? Phase.Through : Phase.Start;
    }
  }
}

/**
 * Counts the head bytes of each request on `socket` as they arrive, before node's parser sees
 * them; `onOverflow` is called once, at the chunk that takes a head past `limit` (it answers 431
 * and closes: the parser may still take that chunk, and a request it parses from a closed
 * connection is not answered). Listening to the socket's data makes node parse it from
 * JavaScript rather than straight from the socket.
 */
export function limitHeadBytes(socket: Socket, onOverflow: () => void, limit = MAX_HEAD_BYTES): void {
  const scanner = new HeadScanner(limit);
  let refused = false;
  socket.prependListener('data', (chunk: Buffer) => {
    if (refused || scanner.scan(chunk)) return;
    refused = true;
    onOverflow();
  });
}
