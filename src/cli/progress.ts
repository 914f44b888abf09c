// What `aula build` shows while it works: on a terminal one line redrawn in place (the phase,
// and a bar where the phase counts its steps); elsewhere (CI logs, pipes) one plain line per
// phase, since redrawn lines would pile up there; with --quiet nothing.

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface ProgressDisplay {
  update(phase: string, done?: number, total?: number): void;
  /** clears a redrawn line, so what follows starts on a clean line */
  end(): void;
}

const BAR = 24;
/** redraw at most this often: a large build reports thousands of pages */
const REDRAW_MS = 80;

export function progressDisplay(stream: ProgressStream, mode: 'auto' | 'quiet' = 'auto', now: () => number = Date.now): ProgressDisplay {
  if (mode === 'quiet') return { update() {}, end() {} };
  if (!stream.isTTY) {
    let last = '';
    return {
      update(phase) {
        if (phase === last) return;
        last = phase;
        stream.write(`aula build: ${phase}\n`);
      },
      end() {},
    };
  }
  let drawn = false;
  let lastPhase = '';
  let lastDraw = -Infinity;
  return {
    update(phase, done, total) {
      const t = now();
      const finished = done !== undefined && done === total;
      if (phase === lastPhase && t - lastDraw < REDRAW_MS && !finished) return;
      lastPhase = phase;
      lastDraw = t;
      let line = `aula build: ${phase}`;
      if (done !== undefined && total !== undefined && total > 0) {
        const filled = Math.round((BAR * Math.min(done, total)) / total);
        line += ` [${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${done}/${total}`;
      }
      // a pseudo-terminal may report 0 columns
      const width = (stream.columns || 80) - 1;
      stream.write(`\r${line.slice(0, width)}\x1b[K`);
      drawn = true;
    },
    end() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}
