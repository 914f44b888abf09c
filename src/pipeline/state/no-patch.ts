// Why the prior cannot stand in for the content, thrown before anything is staged: the content is
// then loaded whole, which reports any problem. `refusal` is the build's `patch.reason`.
export class NoPatch extends Error {}

export function refuse(reason: string): never {
  throw new NoPatch(reason);
}

export const refusal = (e: unknown) => (e instanceof NoPatch ? e.message : `unexpected: ${(e as Error).message}`);
