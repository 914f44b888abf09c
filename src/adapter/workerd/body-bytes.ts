// A fetched body read into one buffer of the size the manifest says it has: workerd copies the
// stream's chunks straight into it (a BYOB reader), where `arrayBuffer()` gathers them into a
// buffer of its own and then copies that into a fresh, zero-filled one — every byte an isolate
// fetches is its first request's largest cost, so each copy of it counts.

/**
 * The bytes of `response`'s body: read into one buffer of `expected` bytes when the stream can be
 * read so (then its length is what was sent, more or less than expected alike), else as
 * `arrayBuffer()` gives them.
 */
export async function bodyBytes(response: Response, expected: number): Promise<Uint8Array> {
  const body = response.body;
  if (body === null) return new Uint8Array(0);
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: 'byob' });
  } catch {
    // (a stream that is not one of bytes)
    return new Uint8Array(await response.arrayBuffer());
  }
  let buffer = new ArrayBuffer(expected);
  let got = 0;
  while (got < expected) {
    const { done, value } = await reader.read(new Uint8Array(buffer, got, expected - got));
    if (value !== undefined) {
      buffer = value.buffer as ArrayBuffer;
      got += value.byteLength;
    }
    if (done) return new Uint8Array(buffer, 0, got);
  }
  // the expected bytes are in: whatever follows is read too, so a longer body shows its length;
  // the end, which nearly always follows, is heard with a buffer of a few bytes (a larger one would
  // be made and zero-filled for every fetch only to hear it), and more bytes are read in larger ones
  const rest: Uint8Array[] = [];
  let more = 0;
  for (let size = 16; ; size = 64 * 1024) {
    const { done, value } = await reader.read(new Uint8Array(new ArrayBuffer(size)));
    if (value !== undefined && value.byteLength > 0) {
      rest.push(value);
      more += value.byteLength;
    }
    if (done) break;
  }
  if (more === 0) return new Uint8Array(buffer);
  const whole = new Uint8Array(expected + more);
  whole.set(new Uint8Array(buffer), 0);
  let at = expected;
  for (const chunk of rest) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}

/**
 * The bytes of `response`'s body read into `into`, a view into a buffer the caller made (a run of
 * a file read in parts, the fetched blocks landing where they go among those already in, so no
 * copy joins them later): the view of the bytes read, at the same offset of the same memory (a
 * BYOB read hands the buffer to the stream and back, so the view given is detached and this one
 * replaces it); null when the body is longer than `into`.
 */
export async function bodyInto(response: Response, into: Uint8Array): Promise<Uint8Array | null> {
  const body = response.body;
  if (body === null) return into.subarray(0, 0);
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: 'byob' });
  } catch {
    // (a stream that is not one of bytes)
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength > into.byteLength) return null;
    into.set(bytes);
    return into.subarray(0, bytes.byteLength);
  }
  let buffer = into.buffer as ArrayBuffer;
  const offset = into.byteOffset;
  const expected = into.byteLength;
  let got = 0;
  while (got < expected) {
    const { done, value } = await reader.read(new Uint8Array(buffer, offset + got, expected - got));
    if (value !== undefined) {
      buffer = value.buffer as ArrayBuffer;
      got += value.byteLength;
    }
    if (done) return new Uint8Array(buffer, offset, got);
  }
  // the end, heard with a buffer of a few bytes; anything more makes the body longer than asked for
  for (;;) {
    const { done, value } = await reader.read(new Uint8Array(new ArrayBuffer(16)));
    if (value !== undefined && value.byteLength > 0) {
      await reader.cancel();
      return null;
    }
    if (done) return new Uint8Array(buffer, offset, got);
  }
}
