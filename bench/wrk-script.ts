// The Lua script wrk runs for one query kind: which path each request takes, and a done() that
// prints the run's figures as one JSON line the bench can parse (wrk's own text output rounds
// latencies and prints no p90/p99 unless asked, and its units vary: "812.34us", "1.20ms").

/** The prefix of the JSON line printed by done(); nothing else wrk prints starts with it. */
export const WRK_JSON_MARKER = 'AULA_WRK_JSON ';

export interface WrkScriptOptions {
  /** request paths ("/v1/…?…"), cycled through; one path is repeated mode */
  paths: readonly string[];
  /** wrk's -t: each thread walks its own stride of the pool, so no two threads ask for the same path in step */
  threads: number;
  /**
   * Count every status code with a response() callback. wrk then hands each answer's headers and
   * body to Lua, which costs throughput (see README "Performance"); without it the 4xx/5xx count
   * still comes from wrk's own summary.errors.status.
   */
  countStatuses?: boolean;
}

/**
 * A Lua string literal for any JS string: printable ASCII as is, everything else (quotes,
 * backslashes, control characters, UTF-8 bytes of non-ASCII text) as decimal escapes, which
 * LuaJIT and every Lua since 5.1 read the same way.
 */
export function luaString(text: string): string {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    const printable = byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c;
    out += printable ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/**
 * The script. wrk passes the arguments after `--` to init(); the first is the pool position to
 * start at, so a measured run continues where its warm-up stopped and distinct paths are not
 * already cached when they are measured.
 */
export function wrkScript(options: WrkScriptOptions): string {
  const { paths, threads, countStatuses = false } = options;
  if (paths.length === 0) throw new Error('wrk script: no request paths');
  if (!Number.isSafeInteger(threads) || threads < 1) throw new Error(`wrk script: bad thread count ${threads}`);
  for (const path of paths) {
    // wrk.format writes the path into the request line as it is
    if (!path.startsWith('/') || /[\s\x00-\x1f\x7f]/.test(path)) throw new Error(`wrk script: not a request path: ${JSON.stringify(path)}`);
  }
  const lines = [
    '-- Written by the aula bench (bench/wrk-script.ts) for one load run; safe to delete.',
    '-- One entry per line: a table constructor of this size stays far below LuaJIT\'s limits.',
    'local paths = {',
    ...paths.map((p) => `  ${luaString(p)},`),
    '}',
    'local count = #paths',
    `local stride = ${threads}`,
    '',
    '-- setup() runs in the main Lua state once per thread; the index it gives each thread becomes',
    '-- a global of that thread\'s own state, read on its first request.',
    'local threads = {}',
    'function setup(thread)',
    '  thread:set("aula_thread_index", #threads)',
    '  table.insert(threads, thread)',
    'end',
    '',
    'local start = 0',
    'function init(args)',
    '  start = tonumber(args[1]) or 0',
    'end',
    '',
    'local position = nil',
    'function request()',
    '  if position == nil then',
    '    position = (start + (aula_thread_index or 0)) % count',
    '  end',
    '  local path = paths[position + 1]',
    '  position = (position + stride) % count',
    '  return wrk.format("GET", path)',
    'end',
  ];
  if (countStatuses) {
    lines.push(
      '',
      '-- a global, so done() can read it from each thread with thread:get()',
      'aula_statuses = {}',
      'function response(status, headers, body)',
      '  aula_statuses[status] = (aula_statuses[status] or 0) + 1',
      'end',
    );
  }
  lines.push(
    '',
    'local function int(n) return string.format("%.0f", n) end',
    '',
    'function done(summary, latency, requests)',
    '  local e = summary.errors',
    '  local statuses = {}',
    countStatuses
      ? [
          '  local merged = {}',
          '  for _, thread in ipairs(threads) do',
          '    local counted = thread:get("aula_statuses") or {}',
          '    for status, n in pairs(counted) do merged[status] = (merged[status] or 0) + n end',
          '  end',
          '  for status, n in pairs(merged) do',
          '    table.insert(statuses, string.format("\\"%d\\":%s", status, int(n)))',
          '  end',
        ].join('\n')
      : '  -- statuses are not counted per code in this run (no response() callback)',
    '  io.write(' + luaString(WRK_JSON_MARKER) + ', "{",',
    '    "\\"requests\\":", int(summary.requests), ",",',
    '    "\\"durationUs\\":", int(summary.duration), ",",',
    '    "\\"bytes\\":", int(summary.bytes), ",",',
    '    "\\"errors\\":{\\"connect\\":", int(e.connect), ",\\"read\\":", int(e.read), ",\\"write\\":", int(e.write),',
    '    ",\\"status\\":", int(e.status), ",\\"timeout\\":", int(e.timeout), "},",',
    '    "\\"latencyUs\\":{\\"p50\\":", int(latency:percentile(50)), ",\\"p90\\":", int(latency:percentile(90)),',
    '    ",\\"p99\\":", int(latency:percentile(99)), ",\\"max\\":", int(latency.max), ",\\"mean\\":", int(latency.mean), "},",',
    `    "\\"statuses\\":", ${countStatuses ? '"{" .. table.concat(statuses, ",") .. "}"' : '"null"'},`,
    '    "}\\n")',
    'end',
    '',
  );
  return lines.join('\n');
}
