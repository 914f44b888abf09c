// The dist writer's build runs in a child process: it must not outlive the dev process that
// started it, however that process ends.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_FILES } from '../../test/fixture-content.ts';
import { EVENTUALLY, removeDir, tempDir, writeContent } from '../../test/helpers.ts';

/** Whether a process with this pid still exists (a zombie not yet reaped by its new parent counts as ended). */
function isRunning(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

const WRITER = new URL('../../lib/dev/dist-writer.js', import.meta.url).href;
let root: string;

beforeAll(() => {
  root = tempDir('aula-dist-writer-');
});
afterAll(() => removeDir(root));

describe('DistWriter', () => {
  it('stops its build when the process exits without close()', async () => {
    const content = writeContent(join(root, 'content'), FIXTURE_FILES);
    const out = join(root, 'out');
    const script = join(root, 'exit-early.mjs');
    // a process that asks for a write and ends at once, the build just started
    writeFileSync(
      script,
      `import { DistWriter } from ${JSON.stringify(WRITER)};
const writer = new DistWriter({ content: ${JSON.stringify(content)}, out: ${JSON.stringify(out)} }, () => {});
writer.write(1);
if (!writer.busy) process.exit(2);
// the build's process, for the test to watch
console.log(writer['child'].pid);
process.exit(3);
`,
    );
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(3);
    // the build ends (stopped, as the process that started it ended) …
    const build = Number(run.stdout.trim());
    await expect.poll(() => isRunning(build), EVENTUALLY).toBe(false);
    // … without having written out/
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
  });
});
