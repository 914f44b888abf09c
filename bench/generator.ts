// Which program makes the load, behind one interface: wrk in its own process (the default, see
// issue 13: autocannon inside the bench's Node process capped every run near 5,000 req/s on two
// cores), or autocannon as the fallback when wrk cannot be had.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PathCursor, runLoad, type LoadResult } from './load.ts';
import { ensureWrk, runWrk, writeWrkScript, type WrkSettings } from './wrk.ts';

export type GeneratorName = 'wrk' | 'autocannon';

export interface GeneratorInfo {
  name: GeneratorName;
  version: string;
  /** the settings every run uses, as the report prints them */
  settings: string;
  /** true when the figures measure the generator's ceiling rather than the server (autocannon) */
  capped: boolean;
  /** why this generator and not the one asked for, when they differ */
  note?: string;
}

export interface LoadGenerator extends GeneratorInfo {
  /** a discarded warm-up, then a measured run cycling through `paths` */
  run(options: { baseUrl: string; paths: readonly string[]; durationS: number; warmupS: number }): Promise<LoadResult>;
}

function autocannonVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    const manifest = JSON.parse(readFileSync(require.resolve('autocannon/package.json'), 'utf8')) as { version?: string };
    return manifest.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function autocannonGenerator(connections: number, note?: string): LoadGenerator {
  return {
    name: 'autocannon',
    version: autocannonVersion(),
    settings: "in the bench's own Node process, 10 s timeout",
    capped: true,
    note,
    run: ({ baseUrl, paths, durationS, warmupS }) =>
      runLoad({ baseUrl, cursor: new PathCursor(paths), connections, durationS, warmupS }),
  };
}

export function wrkGenerator(version: string, settings: WrkSettings, note?: string): LoadGenerator {
  // one script per pool, reused by every pass over it
  const scripts = new WeakMap<readonly string[], string>();
  return {
    name: 'wrk',
    version,
    settings:
      `-t${settings.threads} -c${settings.connections} --timeout ${settings.timeoutS}s, its own process; ` +
      `a Lua script per pool, each thread on its own stride of the pool; ` +
      (settings.countStatuses ? 'every status counted by a response() callback' : '4xx/5xx counted by wrk itself (no response() callback)'),
    capped: false,
    note,
    run: ({ baseUrl, paths, durationS, warmupS }) => {
      let scriptPath = scripts.get(paths);
      if (!scriptPath) {
        scriptPath = writeWrkScript(paths, settings);
        scripts.set(paths, scriptPath);
      }
      return runWrk({ settings, scriptPath, poolSize: paths.length, baseUrl, durationS, warmupS });
    },
  };
}

/**
 * The generator asked for; wrk is installed when missing, and when that fails the bench goes on
 * with autocannon and says so in its report instead of stopping.
 */
export function chooseGenerator(
  wanted: GeneratorName,
  settings: WrkSettings,
  log: (line: string) => void,
): LoadGenerator {
  if (wanted === 'autocannon') return autocannonGenerator(settings.connections, 'chosen with --generator autocannon');
  const wrk = ensureWrk(log);
  if (wrk.ok) return wrkGenerator(wrk.version, settings, wrk.installed ? 'installed by this run from Debian (`apt-get install -y wrk`)' : undefined);
  log(`wrk: ${wrk.reason}`);
  log('falling back to autocannon: its figures are capped by the generator, not the server');
  return autocannonGenerator(settings.connections, `wrk could not be used: ${wrk.reason}`);
}
