import { describe, expect, it } from 'vitest';
import { accessLogger, formatEntry } from './access-log.ts';

const time = new Date('2026-01-02T03:04:05.678Z');

describe('formatEntry', () => {
  it('text: time, method, target, status, bytes, ms — printable ASCII only', () => {
    expect(formatEntry('text', { method: 'GET', target: '/a?b=1', status: 200, bytes: 12, ms: 1.234 }, time)).toBe('2026-01-02T03:04:05.678Z GET /a?b=1 200 12 1.2ms');
    expect(formatEntry('text', { method: 'GET', target: '/a\nb \x1b[31mü', status: 404, bytes: 0, ms: 0 }, time)).toBe('2026-01-02T03:04:05.678Z GET /a%0Ab%20%1B[31m%C3%BC 404 0 0ms');
  });
  it('json: one object per line', () => {
    const line = formatEntry('json', { method: 'HEAD', target: '/x\n', status: 304, bytes: 0, ms: 0.05 }, time);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({ time: time.toISOString(), method: 'HEAD', path: '/x\n', status: 304, bytes: 0, ms: 0.1 });
  });
});

describe('accessLogger', () => {
  it('writes the lines of one burst in one write', async () => {
    const writes: string[] = [];
    const log = accessLogger('text', (chunk) => writes.push(chunk));
    for (let i = 0; i < 3; i++) log({ method: 'GET', target: `/${i}`, status: 200, bytes: 1, ms: 1 });
    expect(writes).toEqual([]);
    await new Promise((ok) => setImmediate(ok));
    expect(writes).toHaveLength(1);
    expect(writes[0].split('\n')).toHaveLength(4);
  });

  it('stamps each line with the current time (to the millisecond)', async () => {
    const writes: string[] = [];
    const log = accessLogger('text', (chunk) => writes.push(chunk));
    const before = Date.now();
    log({ method: 'GET', target: '/a', status: 200, bytes: 1, ms: 1 });
    await new Promise((ok) => setTimeout(ok, 5));
    log({ method: 'GET', target: '/b', status: 200, bytes: 1, ms: 1 });
    const after = Date.now();
    await new Promise((ok) => setImmediate(ok));
    const times = writes.join('').trim().split('\n').map((line) => Date.parse(line.split(' ')[0]));
    expect(times).toHaveLength(2);
    expect(times[0]).toBeGreaterThanOrEqual(before);
    expect(times[1]).toBeGreaterThan(times[0]);
    expect(times[1]).toBeLessThanOrEqual(after);
  });
});
