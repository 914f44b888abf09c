import { describe, expect, it } from 'vitest';
import { describeFailure } from './failure.ts';

function errno(code: string, syscall: string, path?: string, message = `${code}: something, ${syscall}`) {
  return Object.assign(new Error(message), { code, syscall, ...(path ? { path } : {}) });
}

describe('describeFailure', () => {
  it('names the path and the cause of an I/O error, on one line', () => {
    expect(describeFailure(errno('ENOSPC', 'write', '/srv/dist/data/events.jsonl'))).toBe(
      '/srv/dist/data/events.jsonl: no space left on the device [ENOSPC] (write)',
    );
    expect(describeFailure(errno('EACCES', 'open', '/srv/x'))).toBe('/srv/x: permission denied [EACCES] (open)');
    expect(describeFailure(errno('ENOENT', 'mkdir', '/a/b'))).toBe('/a/b: no such file or folder [ENOENT] (mkdir)');
    expect(describeFailure(errno('EROFS', 'mkdir', '/ro/dist'))).toBe('/ro/dist: read-only file system [EROFS] (mkdir)');
  });

  it('without a path, still the cause; unknown codes keep node\'s wording', () => {
    expect(describeFailure(errno('ENOSPC', 'write'))).toBe('no space left on the device [ENOSPC] (write)');
    expect(describeFailure(errno('EWEIRD', 'open', '/x', 'EWEIRD: odd thing, open'))).toBe('/x: odd thing [EWEIRD] (open)');
  });

  it('escapes control characters in paths and messages', () => {
    const line = describeFailure(errno('EACCES', 'open', '/tmp/a\n\x1b[2Jb'));
    expect(line).toBe('/tmp/a\\n\\u001b[2Jb: permission denied [EACCES] (open)');
    expect(line).not.toMatch(/[\x00-\x1f]/);
  });

  it('user-facing errors print their message; others are marked unexpected, first line only', () => {
    const refused = Object.assign(new Error('--out x is the content folder'), { name: 'OutFolderError' });
    expect(describeFailure(refused)).toBe('--out x is the content folder');
    expect(describeFailure(new TypeError('boom\n    at stack'))).toBe('unexpected error: boom');
  });
});
