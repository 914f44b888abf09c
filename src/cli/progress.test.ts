import { describe, expect, it } from 'vitest';
import { progressDisplay } from './progress.ts';

function stream(isTTY: boolean) {
  const out: string[] = [];
  return { out, isTTY, columns: 60, write: (t: string) => out.push(t) };
}

describe('build progress display', () => {
  it('prints one plain line per phase when not a terminal', () => {
    const s = stream(false);
    const p = progressDisplay(s);
    p.update('load content');
    p.update('answer pages', 1, 3);
    p.update('answer pages', 2, 3);
    p.update('write pages');
    p.end();
    expect(s.out).toEqual(['aula build: load content\n', 'aula build: answer pages\n', 'aula build: write pages\n']);
  });

  it('redraws one line with a bar on a terminal, throttled, and clears it at the end', () => {
    const s = stream(true);
    let t = 0;
    const p = progressDisplay(s, 'auto', () => t);
    p.update('answer pages', 1, 4);
    t += 10;
    p.update('answer pages', 2, 4); // too soon: skipped
    t += 100;
    p.update('answer pages', 3, 4);
    p.update('answer pages', 4, 4); // the last step is always drawn
    p.end();
    expect(s.out).toEqual([
      '\raula build: answer pages [######------------------] 1/4\x1b[K',
      '\raula build: answer pages [##################------] 3/4\x1b[K',
      '\raula build: answer pages [########################] 4/4\x1b[K',
      '\r\x1b[K',
    ]);
    expect(s.out.every((line) => !line.includes('\n'))).toBe(true);
  });

  it('shows nothing when quiet', () => {
    const s = stream(true);
    const p = progressDisplay(s, 'quiet');
    p.update('load content');
    p.end();
    expect(s.out).toEqual([]);
  });
});
