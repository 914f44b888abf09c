// Preloaded with `node --import` by serve-graph.test.ts: appends the URL of every module the
// process loads to the file named by AULA_MODULE_LOG. The hook runs on Node's loader thread,
// hence a data: URL module and appendFileSync.
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
const log = process.env.AULA_MODULE_LOG;
export async function load(url, context, next) {
  if (log) appendFileSync(log, url + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
