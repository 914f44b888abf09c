import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aula } from '../../test/aula-cli.ts';
import { removeDir, SAMPLE_CONTENT, tempDir } from '../../test/helpers.ts';
import { HEAP_GROWING_FLAG } from '../util/heap-growth.ts';
import { HEAP_GROWING_PERCENT } from './heap-policy.ts';

describe('the build process’s heap policy', () => {
  it('sets a V8 flag this Node has (an unknown one would be ignored without a word)', () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    const listed = options.split('\n').findIndex((line) => line.trim().startsWith(`${HEAP_GROWING_FLAG} `));
    expect(listed).toBeGreaterThan(-1);
    expect(options.split('\n')[listed + 1]).toMatch(/type: int/);
  });

  it('is in force in `aula build`’s process, and only there', () => {
    // V8's cachedDataVersionTag() hashes the process's flags: the one thing that shows them
    const dir = tempDir('aula-heap-policy-');
    try {
      const preload = join(dir, 'tag.mjs');
      writeFileSync(preload, "import { writeFileSync } from 'node:fs'; import { cachedDataVersionTag } from 'node:v8';\nprocess.on('exit', () => writeFileSync(process.env.TAG_FILE, String(cachedDataVersionTag())));\n");
      const tag = (name: string, args: string[]) => {
        const file = join(dir, name);
        execFileSync(process.execPath, ['--import', preload, ...args], { cwd: dir, env: { ...process.env, TAG_FILE: file }, stdio: 'ignore' });
        return readFileSync(file, 'utf8');
      };
      const aulaTag = (name: string, args: string[]) => {
        const file = join(dir, name);
        expect(aula(args, { node: ['--import', preload], cwd: dir, env: { ...process.env, TAG_FILE: file } }).code).toBe(0);
        return readFileSync(file, 'utf8');
      };
      const build = aulaTag('build', ['build', '--content', SAMPLE_CONTENT, '--out', join(dir, 'dist'), '--no-cache', '--quiet']);
      const help = aulaTag('help', ['--help']);
      expect(build).toBe(tag('flagged', [`${HEAP_GROWING_FLAG}=${HEAP_GROWING_PERCENT}`, '-e', '0']));
      expect(help).toBe(tag('plain', ['-e', '0']));
      expect(build).not.toBe(help);
    } finally {
      removeDir(dir);
    }
  });
});
