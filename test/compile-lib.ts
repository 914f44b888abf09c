// vitest globalSetup: the tests run the CLI as users do (bin/aula.cjs → lib/), so lib/ is compiled
// from the current src/ first; a stale lib/ would test yesterday's code.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const script = fileURLToPath(new URL('../scripts/compile.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run compile failed:\n${r.stdout}${r.stderr}`);
}
