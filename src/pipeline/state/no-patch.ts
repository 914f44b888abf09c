// Why the prior cannot stand in for the content: thrown while the prior is read or the load over
// it runs, before anything is staged; the content is then loaded whole (build.ts load), which
// reports whatever problem there is, as ever. `refusal` says why, as a build's `patch.reason`.
export class NoPatch extends Error {}

export function refuse(reason: string): never {
  throw new NoPatch(reason);
}

export const refusal = (e: unknown) => (e instanceof NoPatch ? e.message : `unexpected: ${(e as Error).message}`);
