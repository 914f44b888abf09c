import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { findContentFiles, readContentFile } from './files.ts';

const EVENT = 'id: 1\ntitle: A\nstart: 2026-05-12T18:00\nend: 2026-05-12T20:00\nlast_modified: 2026-05-01\n';

/**
 * A content folder with events/ nested `depth` folders of 200-byte names deep, an event file in
 * the first and in each of the last two: made by a shell that goes down one folder at a time, as node's own calls
 * take whole paths, which the system refuses past its limit. `rm` removes it the same way.
 */
function deepFolder(depth: number): { dir: string; name: string } {
  const dir = mkdtempSync(join(tmpdir(), 'aula-deep-'));
  onTestFinished(() => void execFileSync('rm', ['-rf', dir]));
  const name = 'd'.repeat(200);
  const script = `cd "$1/events" && i=0; while [ $i -lt ${depth} ]; do mkdir "$2" && cd "$2" || exit 1; { [ $i -eq 0 ] || [ $i -ge ${depth - 2} ]; } && printf '%s' "$3" > e$i.yaml; i=$((i+1)); done`;
  execFileSync('bash', ['-c', `mkdir "$1/events" && ${script}`, 'bash', dir, name, EVENT]);
  return { dir, name };
}

describe('findContentFiles', () => {
  it('reports a folder whose path is longer than the system opens, not a folder passed over', async () => {
    // the content folder's own path, then 21 folders of 201 bytes: past 4,096 bytes in the 20th or 21st
    const { dir, name } = deepFolder(22);
    const found = await findContentFiles(dir);
    expect(found.problems).toHaveLength(1);
    const [problem] = found.problems;
    expect(problem.file).toMatch(new RegExp(`^events(/${name})+$`));
    expect(Buffer.byteLength(join(dir, problem.file))).toBeGreaterThan(4096);
    expect(problem.message).toBe('cannot be read: its path is longer than the system allows (4,096 bytes on Linux); shorten the names of its folders');
    // the file above it is read
    expect(found.events).toEqual([`events/${name}/e0.yaml`]);
  });

  it('reports a file whose path is too long to open at the file', () => {
    const result = readContentFile('/tmp', `${'x'.repeat(250)}/`.repeat(20) + 'e.yaml');
    expect(result).toMatchObject({ ok: false, problem: { line: 1, column: 1, message: expect.stringMatching(/^cannot be read: its path is longer than the system allows/) } });
  });
});
