// The yardstick every figure is divided by: the fastest a plain node:http server on this machine
// can answer a body as large as aula's default first page. It does nothing aula could skip, so a
// ratio of 1.0 means aula's per-request work costs nothing measurable.
//   node --import tsx bench/baseline-server.ts --body FILE --port N [--host 127.0.0.1]
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    body: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});
if (!values.body || !values.port) {
  console.error('usage: baseline-server.ts --body FILE --port N [--host H]');
  process.exit(2);
}

// The real first page, read once: same bytes on the wire as aula's answer, none of its work.
const body = readFileSync(values.body);
const headers = { 'Content-Type': 'application/json', 'Content-Length': String(body.length) };

const server = createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(Number(values.port), values.host, () => {
  console.log(`baseline serving ${body.length} bytes on http://${values.host}:${values.port}/`);
});

const stop = () => server.close(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
