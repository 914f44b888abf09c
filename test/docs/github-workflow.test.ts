// The workflow runner the docs walkthrough uses: what it checks of the actions it cannot run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers.ts';
import { runWorkflow } from './github-workflow.ts';

const root = tempDir('aula-workflow-test-');
afterAll(() => removeDir(root));

/** A checkout holding one workflow of these steps (YAML lines, each a list item). */
function checkout(name: string, steps: string[]): string {
  const dir = join(root, name);
  mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
  writeFileSync(join(dir, '.github', 'workflows', 'w.yml'), `jobs:\n  build:\n    steps:\n${steps.map((s) => `      ${s}`).join('\n')}\n`);
  return dir;
}

const cache = ['- uses: actions/cache@v4', '  with:', '    path: node_modules/.cache/aula', '    key: k'];

describe('runWorkflow and actions/cache', () => {
  it('takes a cache of node_modules/ restored after npm ci', () => {
    // (`echo npm ci`: the step names npm ci without installing anything)
    const runs = runWorkflow(checkout('after', ['- run: echo npm ci', ...cache]), '.github/workflows/w.yml');
    expect(runs.map((r) => r.output)).toEqual(['npm ci\n', 'skipped: node_modules/.cache/aula would be restored (key k) and saved at the end']);
  });

  it('refuses one restored before npm ci, which removes node_modules/, and one outside the checkout', () => {
    expect(() => runWorkflow(checkout('before', [...cache, '- run: echo npm ci']), '.github/workflows/w.yml')).toThrow(/restored before npm ci/);
    const outside = ['- uses: actions/cache@v4', '  with:', '    path: ../elsewhere', '    key: k'];
    expect(() => runWorkflow(checkout('outside', outside), '.github/workflows/w.yml')).toThrow(/is not a folder of the checkout/);
  });
});
