// Counts the TextDecoder calls a test makes happen, by their input's length: which texts were
// decoded whole, which strings alone, and when.
import { vi } from 'vitest';

export interface DecodeSpy {
  /** each call's input length, in order */
  readonly seen: number[];
  restore(): void;
}

/** Spies on every TextDecoder's decode until restore(); the calls still decode. */
export function spyOnDecodes(): DecodeSpy {
  const seen: number[] = [];
  const decode = TextDecoder.prototype.decode;
  const spy = vi.spyOn(TextDecoder.prototype, 'decode').mockImplementation(function (this: unknown, input?: ArrayBuffer | ArrayBufferView | null) {
    seen.push(input?.byteLength ?? 0);
    return decode.call(this as never, input as never);
  });
  return { seen, restore: () => spy.mockRestore() };
}
