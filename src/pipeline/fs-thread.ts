// A short file-system program run on a worker thread while the build's own thread goes on (the
// patch's page links, the former dist's removal). The program ends by posting nothing, or its
// error as plain fields: an error crossing threads would lose its code and paths, which the one
// line the CLI prints names.
import { Worker } from 'node:worker_threads';

/** `body`: CommonJS statements using `workerData` (and `require`); throwing is the failure. */
export function runFsThread(body: string, workerData: unknown, options: { stopped: string; path?: string }): Promise<void> {
  const program = `
const { parentPort, workerData } = require('node:worker_threads');
try {
${body}
  parentPort.postMessage(null);
} catch (e) {
  parentPort.postMessage({ message: String(e && e.message), code: e && e.code, path: e && e.path, dest: e && e.dest, syscall: e && e.syscall });
}
`;
  return new Promise((resolve, reject) => {
    let failure: Error | null = null;
    let answered = false;
    const worker = new Worker(program, { eval: true, workerData });
    worker.on('message', (m: null | { message: string; code?: string; path?: string; dest?: string; syscall?: string }) => {
      answered = true;
      if (m !== null) failure = Object.assign(new Error(m.message), { code: m.code, path: m.path ?? options.path, dest: m.dest, syscall: m.syscall });
    });
    worker.on('error', (e) => {
      failure ??= e;
    });
    worker.on('exit', () => {
      if (failure === null && !answered) failure = new Error(options.stopped);
      if (failure === null) resolve();
      else reject(failure);
    });
  });
}
