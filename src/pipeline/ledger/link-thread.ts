// DistLedger.linkQueued's thread (dist-ledger.ts): stops at the first failure, which reaches the caller.
import { linkSync } from 'node:fs';

export function answer(pairs: readonly string[]): null {
  for (let i = 0; i < pairs.length; i += 2) linkSync(pairs[i], pairs[i + 1]);
  return null;
}
