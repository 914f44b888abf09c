// Why a build over the event state is not made: thrown anywhere in it before it publishes, caught
// by build.ts (stagesOverState), which then loads the content whole (and reports whatever problem
// there is, as ever).
export class NoPatch extends Error {}

export function refuse(reason: string): never {
  throw new NoPatch(reason);
}
