// A JSON text written as UTF-8 straight into one growing buffer: the index of minisearch.json is
// mostly small integers, each written as its digits rather than made a string first.

/**
 * The buffer is a generous guess (zeroed as the kernel maps it: pages never written cost no
 * memory), grown should the JSON pass it: chunks joined at the end would be held twice.
 */
export class JsonBytes {
  private bytes: Buffer;
  private end = 0;

  constructor(guess: number) {
    this.bytes = Buffer.alloc(guess);
  }

  get length(): number {
    return this.end;
  }

  private room(most: number): void {
    if (this.end + most <= this.bytes.length) return;
    const grown = Buffer.alloc(Math.max(this.end + most, this.bytes.length * 2));
    this.bytes.copy(grown, 0, 0, this.end);
    this.bytes = grown;
  }

  /** Any text, as UTF-8 (a lone surrogate as U+FFFD, as Buffer.from writes it). */
  text(text: string): void {
    // (a UTF-16 unit is at most 3 bytes of UTF-8)
    this.room(text.length * 3);
    this.end += this.bytes.write(text, this.end);
  }

  /** A text known to be ASCII (punctuation of the JSON), byte by byte. */
  ascii(text: string): void {
    this.room(text.length);
    const bytes = this.bytes;
    let end = this.end;
    for (let i = 0; i < text.length; i++) bytes[end++] = text.charCodeAt(i);
    this.end = end;
  }

  /** One ASCII character by its code. */
  char(code: number): void {
    this.room(1);
    this.bytes[this.end++] = code;
  }

  /** A non-negative integer below 2^31 in decimal, as JSON.stringify writes it. */
  int(n: number): void {
    this.room(10);
    const bytes = this.bytes;
    let digits = 1;
    for (let rest = n; rest >= 10; rest = (rest / 10) | 0) digits++;
    let at = this.end + digits;
    this.end = at;
    let rest = n;
    do {
      bytes[--at] = 48 + (rest % 10);
      rest = (rest / 10) | 0;
    } while (rest > 0);
  }

  /** What another has written, after what this has. */
  append(other: JsonBytes): void {
    this.room(other.end);
    this.end += other.bytes.copy(this.bytes, this.end, 0, other.end);
  }

  finish(): Buffer {
    return this.bytes.subarray(0, this.end);
  }
}
