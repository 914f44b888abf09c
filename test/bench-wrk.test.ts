// The bench's wrk generator (bench/wrk*.ts): the Lua script it writes, how it reads wrk's output,
// and, where wrk is installed, one short real run against a local server. No timing is asserted.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GeneratorInfo } from '../bench/generator.ts';
import { askedBefore, type LoadResult } from '../bench/load.ts';
import { askedBeforeCell, baselineSection, generatorLines, missed } from '../bench/report.ts';
import type { QueryKind } from '../bench/queries.ts';
import { non2xxLine, parseWrkOutput, wrkLoadResult } from '../bench/wrk-output.ts';
import { retransSegs, tcpRetransmits } from '../bench/tcp-counters.ts';
import { luaString, WRK_JSON_MARKER, wrkScript } from '../bench/wrk-script.ts';
import { runWrk, wholeSeconds, wrkArgs, wrkVersion } from '../bench/wrk.ts';
import { removeDir, tempDir } from './helpers.ts';

const json = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    requests: 120_000,
    durationUs: 2_000_000,
    bytes: 6_000_000_000,
    errors: { connect: 0, read: 1, write: 0, status: 0, timeout: 2 },
    latencyUs: { p50: 812, p90: 2_140, p99: 9_875, max: 40_001, mean: 1_020 },
    statuses: null,
    ...over,
  });

/** What wrk 4.1 prints for a run with the bench's script: its own summary, then done()'s line. */
const wrkStdout = (line: string, non2xx = 0) =>
  [
    'Running 2s test @ http://127.0.0.1:40000',
    '  2 threads and 50 connections',
    '  Thread Stats   Avg      Stdev     Max   +/- Stdev',
    '    Latency     1.02ms    1.10ms  40.00ms   91.00%',
    '    Req/Sec    30.12k     2.01k   35.00k    70.00%',
    '  120000 requests in 2.00s, 5.59GB read',
    '  Socket errors: connect 0, read 1, write 0, timeout 2',
    ...(non2xx > 0 ? [`  Non-2xx or 3xx responses: ${non2xx}`] : []),
    'Requests/sec:  60000.00',
    'Transfer/sec:      2.79GB',
    line,
    '',
  ].join('\n');

describe('luaString', () => {
  it('keeps printable ASCII and escapes quotes, backslashes, control and non-ASCII bytes as decimal escapes', () => {
    expect(luaString('/v1/cms/event/?q=a%20b')).toBe('"/v1/cms/event/?q=a%20b"');
    expect(luaString('a"b\\c\nd')).toBe('"a\\034b\\092c\\010d"');
    // ö is C3 B6 in UTF-8: Lua strings are bytes, so each byte is escaped
    expect(luaString('ö')).toBe('"\\195\\182"');
    expect(luaString('')).toBe('""');
  });
});

describe('wrkScript', () => {
  const paths = ['/v1/cms/event/?offset=1', '/v1/cms/event/?offset=2', '/v1/cms/event/?title__icontains=%C3%B6'];

  it('lists every path once, walks the pool with a stride of the thread count and prints the JSON line', () => {
    const script = wrkScript({ paths, threads: 3 });
    for (const p of paths) expect(script.split('\n').filter((l) => l.trim() === `${luaString(p)},`)).toHaveLength(1);
    expect(script).toContain('local stride = 3');
    expect(script).toContain('function request()');
    expect(script).toContain('function done(summary, latency, requests)');
    expect(script).toContain(luaString(WRK_JSON_MARKER));
    expect(script).toContain('start = tonumber(args[1]) or 0');
  });

  it('adds a response() callback only when statuses are counted', () => {
    expect(wrkScript({ paths, threads: 2 })).not.toMatch(/function response\(/);
    const counting = wrkScript({ paths, threads: 2, countStatuses: true });
    expect(counting).toMatch(/function response\(status, headers, body\)/);
    expect(counting).toContain('thread:get("aula_statuses")');
  });

  it('refuses an empty pool, a bad thread count and anything that is not a request path', () => {
    expect(() => wrkScript({ paths: [], threads: 2 })).toThrow(/no request paths/);
    expect(() => wrkScript({ paths, threads: 0 })).toThrow(/thread count/);
    expect(() => wrkScript({ paths: ['v1/no-slash'], threads: 1 })).toThrow(/not a request path/);
    expect(() => wrkScript({ paths: ['/a b'], threads: 1 })).toThrow(/not a request path/);
    expect(() => wrkScript({ paths: ['/a\r\nX-Injected: 1'], threads: 1 })).toThrow(/not a request path/);
  });
});

describe('parseWrkOutput', () => {
  it('reads the JSON line among wrk\'s own output', () => {
    const s = parseWrkOutput(wrkStdout(WRK_JSON_MARKER + json()));
    expect(s.requests).toBe(120_000);
    expect(s.durationUs).toBe(2_000_000);
    expect(s.errors).toEqual({ connect: 0, read: 1, write: 0, status: 0, timeout: 2 });
    expect(s.latencyUs.p99).toBe(9_875);
    expect(s.statuses).toBeNull();
  });

  it('reads per-status counts when the script counted them', () => {
    const line = WRK_JSON_MARKER + json({ statuses: { 200: 119_990, 404: 10 }, errors: { connect: 0, read: 0, write: 0, status: 10, timeout: 0 } });
    expect(parseWrkOutput(wrkStdout(line, 10)).statuses).toEqual({ 200: 119_990, 404: 10 });
  });

  it('says what wrk printed when there is no JSON line (wrk failed before done())', () => {
    expect(() => parseWrkOutput('unable to connect to 127.0.0.1:1 Connection refused\n')).toThrow(/no result line: unable to connect/);
    expect(() => parseWrkOutput('')).toThrow(/\(nothing\)/);
  });

  it('rejects a malformed or incomplete line instead of reporting zeros', () => {
    expect(() => parseWrkOutput(`${WRK_JSON_MARKER}{"requests":1,`)).toThrow(/not JSON/);
    expect(() => parseWrkOutput(WRK_JSON_MARKER + json({ requests: -1 }))).toThrow(/requests is not a count/);
    expect(() => parseWrkOutput(WRK_JSON_MARKER + json({ latencyUs: { p50: 1 } }))).toThrow(/latencyUs.p90/);
    expect(() => parseWrkOutput(WRK_JSON_MARKER + json({ statuses: { ok: 1 } }))).toThrow(/not a status code/);
  });

  it('cross-checks the 4xx/5xx count against wrk\'s "Non-2xx or 3xx responses" line', () => {
    expect(non2xxLine(wrkStdout('', 37))).toBe(37);
    expect(non2xxLine(wrkStdout(''))).toBe(0);
    const line = WRK_JSON_MARKER + json({ errors: { connect: 0, read: 0, write: 0, status: 5, timeout: 0 } });
    expect(parseWrkOutput(wrkStdout(line, 5)).errors.status).toBe(5);
    expect(() => parseWrkOutput(wrkStdout(line, 6))).toThrow(/Non-2xx or 3xx responses: 6/);
  });
});

describe('wrkLoadResult', () => {
  it('turns microseconds into the report\'s req/s, milliseconds and failure counts', () => {
    const r = wrkLoadResult(parseWrkOutput(wrkStdout(WRK_JSON_MARKER + json({ errors: { connect: 1, read: 1, write: 0, status: 4, timeout: 2 } }), 4)));
    expect(r.rps).toBe(60_000);
    expect(r.durationS).toBe(2);
    expect([r.p50, r.p90, r.p99, r.max]).toEqual([0.812, 2.14, 9.875, 40.001]);
    expect(r.errors).toBe(4); // connect + read + write + timeout
    expect(r.timeouts).toBe(2);
    expect(r.failures).toBe(4);
    expect(r.non2xx).toBe(4);
    expect(r.statusCounts).toEqual({ '2xx/3xx': 119_996, '4xx/5xx': 4 });
    expect(r.bytesPerAnswer).toBe(50_000);
  });

  it('uses the counted statuses when there are any', () => {
    const line = WRK_JSON_MARKER + json({ statuses: { 200: 100, 304: 5, 400: 3 }, errors: { connect: 0, read: 0, write: 0, status: 3, timeout: 0 } });
    const r = wrkLoadResult(parseWrkOutput(wrkStdout(line, 3)));
    expect(r.statusCounts).toEqual({ 200: 100, 304: 5, 400: 3 });
    expect(r.non2xx).toBe(8);
    expect(r.failures).toBe(3);
  });
});

describe('retransSegs', () => {
  const snmp = [
    'Ip: Forwarding DefaultTTL',
    'Ip: 1 64',
    'Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors',
    'Tcp: 1 200 120000 -1 439949 291636 146827 134303 0 133937391 133810941 87668 0 219732 0',
    'Udp: InDatagrams NoPorts',
    'Udp: 5 0',
  ].join('\n');

  it("reads the Tcp line's RetransSegs by its name, and nothing from a text without one", () => {
    expect(retransSegs(snmp)).toBe(87_668);
    expect(retransSegs('Ip: Forwarding\nIp: 1\n')).toBeUndefined();
    expect(retransSegs('Tcp: RtoMin\nTcp: 200\n')).toBeUndefined();
  });

  it('reads this machine\'s count where there is one', () => {
    const n = tcpRetransmits();
    if (process.platform === 'linux') expect(n).toBeGreaterThanOrEqual(0);
  });
});

describe('wrk command line', () => {
  it('reads the version from `wrk -v`', () => {
    expect(wrkVersion('wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer\nUsage: wrk <options> <url>')).toBe('debian/4.1.0-3+b2 [epoll]');
    expect(wrkVersion('wrk 4.2.0 [kqueue] Copyright (C) 2012 Will Glozer')).toBe('4.2.0 [kqueue]');
    expect(wrkVersion('sh: wrk: not found')).toBeUndefined();
  });

  it('asks for whole seconds, never fewer than meant, and passes the pool start to the script', () => {
    expect([wholeSeconds(0.4), wholeSeconds(1), wholeSeconds(1.3), wholeSeconds(3)]).toEqual([1, 1, 2, 3]);
    const args = wrkArgs({ threads: 2, connections: 50, timeoutS: 10, countStatuses: false }, '/tmp/x.lua', 'http://127.0.0.1:1', 1.5, 123);
    expect(args).toEqual(['-t', '2', '-c', '50', '-d', '2s', '--timeout', '10s', '-s', '/tmp/x.lua', 'http://127.0.0.1:1', '--', '123']);
  });
});

describe('report', () => {
  const wrk: GeneratorInfo = { name: 'wrk', version: 'debian/4.1.0-3+b2 [epoll]', settings: '-t2 -c50', capped: false };

  it('names the generator, and says when its figures are capped by it', () => {
    expect(generatorLines(wrk, 50, 20_000).join('\n')).toMatch(/^- load generator: wrk debian\/4\.1\.0-3\+b2 \[epoll\] \(-t2 -c50\), 50 connections.*20,000 URLs/);
    expect(generatorLines(wrk, 50).join('\n')).not.toMatch(/capped/);
    const ac: GeneratorInfo = { name: 'autocannon', version: '9.0.0', settings: 'in-process', capped: true, note: 'wrk could not be used: no apt-get' };
    const lines = generatorLines(ac, 50, 100).join('\n');
    expect(lines).toMatch(/capped by the load generator, not the server/);
    expect(lines).toMatch(/wrk could not be used: no apt-get/);
  });

  it('compares the baseline and the generator ceiling with the fastest page-sized aula row', () => {
    const load = (rps: number, bytesPerAnswer: number): LoadResult => ({
      rps, p50: 1, p90: 2, p99: 3, requests: rps * 2, errors: 0, timeouts: 0, non2xx: 0, failures: 0, statusCounts: {}, bytesPerAnswer, durationS: 2,
    });
    const kind = (key: string): QueryKind => ({ key, label: key, group: 'pages', repeated: '/', distinct: ['/'] });
    const text = baselineSection({
      generator: wrk,
      baseline: { runs: [{ label: 'before', load: load(40_000, 50_000) }], bodyBytes: 50_000, rps: 40_000, ceiling: { bodyBytes: 2, load: load(80_000, 100) } },
      passes: [{
        title: '1 process', workers: 1, available: true, durationS: 2, warmupS: 1,
        runs: [
          { kind: kind('page'), mode: 'distinct', unique: 20_000, load: load(10_000, 48_000) },
          { kind: kind('detail'), mode: 'distinct', unique: 20_000, load: load(30_000, 3_000) },
        ],
      }],
    }).join('\n');
    expect(text).toContain('| generator ceiling (2-byte body) | 80,000 |');
    // the small detail answers are not the comparison: the 48 KB page row is
    expect(text).toMatch(/fastest page-sized aula row \(page, distinct\) ran 10,000 req\/s: the baseline is 4\.0× that, and the generator ceiling 8\.0×/);
    expect(text).not.toMatch(/may be what limits/);
    expect(text).not.toMatch(/disturbed/);
    // the fastest page-sized row is the distinct one here: said once
    expect(text).not.toMatch(/fastest page-sized distinct row/);

    // a generator that cannot outrun the server, and a baseline sample slower than a row
    const capped = baselineSection({
      generator: wrk,
      baseline: { runs: [{ label: 'before', load: load(9_000, 50_000) }], bodyBytes: 50_000, rps: 9_000, ceiling: { bodyBytes: 2, load: load(12_000, 100) } },
      passes: [{
        title: '1 process', workers: 1, available: true, durationS: 2, warmupS: 1,
        runs: [{ kind: kind('page'), mode: 'repeated', unique: 1, load: load(10_000, 48_000) }, { kind: kind('page'), mode: 'distinct', unique: 20_000, load: load(5_000, 48_000) }],
      }],
    }).join('\n');
    expect(capped).toMatch(/generator ceiling is under 1\.5× this row: the generator may be what limits these runs/);
    expect(capped).toMatch(/baseline ran slower than this row/);
    expect(capped).not.toMatch(/disturbed/);
    // the rows that measure the server, against the baseline
    expect(capped).toMatch(/fastest page-sized distinct row \(page\) ran 5,000 req\/s: the baseline is 1\.8× that/);
  });

  it('says, per distinct row, the share of requests whose URL the warm-up or the run had asked already', () => {
    const load = (requests: number, warmupRequests?: number): LoadResult => ({
      rps: requests / 2, p50: 1, p90: 2, p99: 3, requests, errors: 0, timeouts: 0, non2xx: 0, failures: 0, statusCounts: {}, bytesPerAnswer: 48_000, durationS: 2, warmupRequests,
    });
    // within the pool: nothing asked twice
    expect(askedBefore(load(60_000, 20_000), 100_000)).toBe(0);
    // the warm-up and the run pass the pool's size by 30,000: those requests ask again
    expect(askedBefore(load(60_000, 20_000), 50_000)).toBe(30_000);
    // a pool smaller than the warm-up: every request of the run asks again
    expect(askedBefore(load(60_000, 20_000), 280)).toBe(60_000);
    const kind: QueryKind = { key: 'page', label: 'page', group: 'pages', repeated: '/', distinct: ['/'] };
    expect(askedBeforeCell({ kind, mode: 'distinct', unique: 50_000, load: load(60_000, 20_000) })).toBe('**50 %**');
    expect(askedBeforeCell({ kind, mode: 'distinct', unique: 100_000, load: load(60_000, 20_000) })).toBe('0');
    expect(askedBeforeCell({ kind, mode: 'distinct', unique: 79_900, load: load(60_000, 20_000) })).toBe('**< 1 %**');
    // a repeated run asks one URL throughout; an older run's warm-up is unknown
    expect(askedBeforeCell({ kind, mode: 'repeated', unique: 1, load: load(60_000, 20_000) })).toBe('–');
    expect(askedBeforeCell({ kind, mode: 'distinct', unique: 50_000, load: load(60_000) })).toBe('?');
  });

  it('sums up each pass\'s baseline samples, and judges a row against the samples next to it', () => {
    const load = (rps: number, p50 = 1): LoadResult => ({
      rps, p50, p90: 2, p99: 3, requests: rps * 2, errors: 0, timeouts: 0, non2xx: 0, failures: 0, statusCounts: {}, bytesPerAnswer: 48_000, durationS: 2,
    });
    const kind = (key: string): QueryKind => ({ key, label: key, group: 'pages', repeated: '/', distinct: ['/'] });
    const runs = [
      { label: 'before page', pass: '1 process', load: load(30_000, 1) },
      { label: 'after page', pass: '1 process', load: load(50_000, 3) },
      { label: 'after deep', pass: '1 process', load: load(40_000, 2) },
    ];
    const text = baselineSection({
      generator: wrk,
      baseline: { runs, bodyBytes: 50_000, rps: 40_000 },
      passes: [{
        title: '1 process', workers: 1, available: true, durationS: 2, warmupS: 1,
        // the samples around the page kind average 40,000; the run's mean would say the same, the next one 45,000
        runs: [{ kind: kind('page'), mode: 'distinct', unique: 20_000, load: load(20_000), baselineRps: 45_000 }],
      }],
    }).join('\n');
    expect(text).toContain('| 1 process: 3 samples, 30,000 to 50,000 req/s (mean; latencies the samples\' medians) | 40,000 | 2 | 2 | 3 |');
    expect(text).toContain('| **baseline** (the mean of every sample) | **40,000** |');
    // judged by the samples next to it (45,000), not by the mean of every sample (40,000)
    expect(text).toMatch(/fastest page-sized aula row \(page, distinct\) ran 20,000 req\/s: the baseline is 2\.3× that/);
    expect(missed({ kind: kind('page'), mode: 'distinct', unique: 1, load: load(17_000), baselineRps: 45_000 }, 40_000)).toBe(true); // 0.38 < 0.4
    expect(missed({ kind: kind('page'), mode: 'distinct', unique: 1, load: load(17_000), baselineRps: 40_000 }, 45_000)).toBe(false); // 0.425
    // a row of an older report, without samples of its own, is judged by the mean
    expect(missed({ kind: kind('page'), mode: 'distinct', unique: 1, load: load(17_000) }, 40_000)).toBe(false);
  });
});

// A real wrk run, where wrk is installed (the bench installs it; .ci/run installs it, so in CI a
// missing wrk fails here instead of skipping).
const hasWrk = spawnSync('wrk', ['-v']).error === undefined;
if (!hasWrk && process.env.CI) {
  it('wrk is installed (CI installs it)', () => {
    throw new Error('wrk is not installed; CI must install it (see .ci/run)');
  });
}

describe.skipIf(!hasWrk)('runWrk against a local server', () => {
  const seen = new Map<string, number>();
  let server: Server;
  const dir = tempDir('aula-bench-wrk-test-');
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    removeDir(dir);
  });

  it('walks the whole pool, counts the 404s and reports the run', async () => {
    server = createServer((req, res) => {
      seen.set(req.url ?? '', (seen.get(req.url ?? '') ?? 0) + 1);
      res.writeHead(req.url?.includes('missing') ? 404 : 200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const paths = Array.from({ length: 40 }, (_, i) => (i % 10 === 9 ? `/missing/${i}` : `/v1/cms/event/?offset=${i}&q=%C3%B6`));
    const scriptPath = join(dir, 'load.lua');
    writeFileSync(scriptPath, wrkScript({ paths, threads: 2 }));
    const r = await runWrk({
      settings: { threads: 2, connections: 4, timeoutS: 5, countStatuses: false },
      scriptPath,
      poolSize: paths.length,
      baseUrl: `http://127.0.0.1:${port}`,
      durationS: 1,
      warmupS: 1,
    });
    expect(r.requests).toBeGreaterThan(paths.length);
    // the warm-up's requests are told, and past the pool's 40 paths the run asked them all again
    expect(r.warmupRequests).toBeGreaterThan(paths.length);
    expect(askedBefore(r, paths.length)).toBe(r.requests);
    expect([...seen.keys()].sort()).toEqual([...paths].sort());
    expect(r.failures).toBeGreaterThan(0);
    expect(r.failures).toBeLessThan(r.requests);
    expect(r.errors).toBe(0);
    expect(r.p99).toBeGreaterThan(0);
  });
});
