// Preloaded with `node --import` by serve-graph.test.ts and state-build-graph.test.ts: appends the
// URL of every module the process loads to the file named by AULA_MODULE_LOG. The hook runs on
// Node's loader thread, hence a data: URL module and appendFileSync. Modules loaded by require()
// (createRequire, for a package loaded on first need) do not pass the hook: the main thread's
// require cache is appended as the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const hooks = `
import { appendFileSync } from 'node:fs';
const log = process.env.AULA_MODULE_LOG;
export async function load(url, context, next) {
  if (log) appendFileSync(log, url + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);

const log = process.env.AULA_MODULE_LOG;
if (log) {
  const required = createRequire(import.meta.url).cache;
  process.on('exit', () => appendFileSync(log, Object.keys(required).map((path) => `${pathToFileURL(path).href}\n`).join('')));
}
