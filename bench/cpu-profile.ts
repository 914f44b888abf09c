// Reads a V8 CPU profile (`node --cpu-prof`) of a server under load: the main thread's sampled
// time inside a time window, split into the parts a miss is explained by (the kernel's socket
// writes, file reads, GC, aula's own modules, node's HTTP machinery), and aula's costliest
// functions. The window is in the profile's own clock, CLOCK_MONOTONIC microseconds, which is
// process.hrtime's clock too: the bench notes hrtime around a load run and cuts that run out of a
// profile of the whole server's life.

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The parts, in the order a report lists them. */
export const PARTS = [
  'socket writes',
  'file reads',
  'GC',
  'aula',
  'node HTTP',
  'node streams, net',
  'node, other',
  'V8, native',
] as const;
export type Part = (typeof PARTS)[number];

export interface WindowSummary {
  /** sampled time in the window, idle excluded (µs) */
  busyUs: number;
  /** time the thread waited for I/O: the server had nothing to do */
  idleUs: number;
  parts: Record<Part, number>;
  /** aula's own modules, by folder under lib/ (api, query/autocomplete, store/read …) */
  aulaModules: Record<string, number>;
  /** aula's functions by self time, costliest first */
  aulaFunctions: { name: string; us: number }[];
}

/** Native calls that are a system call on the socket or on a file (their self time is the kernel's). */
const SOCKET_WRITES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString', 'writeUcs2String']);
const FILE_READS = new Set(['read', 'readFileUtf8', 'readBuffers', 'pread']);

/**
 * Where a sample's self time goes. Native frames other than the system calls (a compiled RegExp,
 * a builtin) count for the JavaScript that called them.
 */
function classify(frame: CallFrame, lib: string): { part: Part; module?: string } | 'idle' | 'caller' {
  const { functionName: name, url } = frame;
  if (url === '') {
    if (name === '(idle)') return 'idle';
    if (name === '(garbage collector)') return { part: 'GC' };
    if (name === '(program)' || name === '(root)') return { part: 'V8, native' };
    if (SOCKET_WRITES.has(name)) return { part: 'socket writes' };
    if (FILE_READS.has(name)) return { part: 'file reads' };
    return 'caller';
  }
  if (url.startsWith(lib)) {
    const rest = url.slice(lib.length);
    const cut = rest.lastIndexOf('/');
    return { part: 'aula', module: cut < 0 ? '(top)' : rest.slice(0, cut).split('/').slice(0, 2).join('/') };
  }
  if (url.startsWith('node:')) {
    const m = url.slice(5);
    if (m.startsWith('_http_') || m === 'http' || m.startsWith('internal/http')) return { part: 'node HTTP' };
    if (m.startsWith('internal/streams/') || m === 'net' || m.startsWith('internal/stream_base') || m.startsWith('internal/net')) return { part: 'node streams, net' };
    return { part: 'node, other' };
  }
  return { part: 'V8, native' };
}

type Where = { part: Part; module?: string; fn?: string } | 'idle';

/**
 * The main thread's time in each window [from, to] (the profile's clock), one summary per
 * window. `lib` is the URL prefix of aula's compiled modules (file:///…/lib/). The profile's tree
 * is indexed and each node classified once for all the windows.
 */
export function summarizeWindows(profile: CpuProfile, windows: readonly { from: number; to: number }[], lib: string): WindowSummary[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // classified once per node: a profile has thousands of nodes and hundreds of thousands of samples
  const memo = new Map<number, Where>();
  const resolve = (id: number): Where => {
    let known = memo.get(id);
    if (known) return known;
    let at: number | undefined = id;
    let c: ReturnType<typeof classify> = 'caller';
    let frame: CallFrame | undefined;
    while (at !== undefined) {
      frame = byId.get(at)!.callFrame;
      c = classify(frame, lib);
      if (c !== 'caller') break;
      at = parent.get(at);
    }
    if (c === 'caller') known = { part: 'V8, native' };
    else if (c === 'idle') known = 'idle';
    else known = c.part === 'aula' ? { ...c, fn: `${frame!.functionName || '(anonymous)'} (${frame!.url.slice(lib.length)}:${frame!.lineNumber + 1})` } : c;
    memo.set(id, known);
    return known;
  };
  return windows.map(({ from, to }) => {
    const parts = Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>;
    const aulaModules: Record<string, number> = {};
    const fns = new Map<string, number>();
    let idleUs = 0;
    // samples[i] was taken at startTime + timeDeltas[0..i]; each stands for the interval before it
    let t = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
      const d = profile.timeDeltas[i] ?? 0;
      t += d;
      if (t < from || t > to) continue;
      const where = resolve(profile.samples[i]);
      if (where === 'idle') {
        idleUs += d;
        continue;
      }
      parts[where.part] += d;
      if (where.module !== undefined) aulaModules[where.module] = (aulaModules[where.module] ?? 0) + d;
      if (where.fn !== undefined) fns.set(where.fn, (fns.get(where.fn) ?? 0) + d);
    }
    const busyUs = PARTS.reduce((s, p) => s + parts[p], 0);
    const aulaFunctions = [...fns].map(([name, us]) => ({ name, us })).sort((x, y) => y.us - x.us);
    return { busyUs, idleUs, parts, aulaModules, aulaFunctions };
  });
}
