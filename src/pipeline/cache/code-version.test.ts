import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { CODE_VERSION_FILE, codeVersion, hashModules } from './code-version.ts';

const SRC = join(import.meta.dirname, '..', '..');
const LIB = join(SRC, '..', 'lib');
let dir: string;
afterEach(() => removeDir(dir));

describe('the code version', () => {
  it('changes with any module, and with no test', () => {
    dir = tempDir('aula-code-version-');
    writeFileSync(join(dir, 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(dir, 'a.test.ts'), 'test\n');
    const before = hashModules(dir, '.ts');
    writeFileSync(join(dir, 'a.test.ts'), 'another test\n');
    expect(hashModules(dir, '.ts')).toBe(before);
    writeFileSync(join(dir, 'a.ts'), 'export const a = 2;\n');
    expect(hashModules(dir, '.ts')).not.toBe(before);
  });

  it('is the sources\' hash, here and as the compile step wrote it beside the compiled modules', () => {
    expect(codeVersion()).toBe(hashModules(SRC, '.ts'));
    const written = JSON.parse(readFileSync(join(LIB, CODE_VERSION_FILE), 'utf8')) as { sha256: string };
    expect(written.sha256).toBe(hashModules(SRC, '.ts'));
  });
});
