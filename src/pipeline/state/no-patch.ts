// Why a patch build is not made: thrown anywhere in it, caught by tryPatch, which then lets the
// full build run (and report whatever problem there is, as ever).
export class NoPatch extends Error {}

export function refuse(reason: string): never {
  throw new NoPatch(reason);
}
