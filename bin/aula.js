#!/usr/bin/env node
// Runs the compiled CLI in lib/ (built by `npm run compile`, which `npm ci` and `npm pack` run).
import { existsSync } from 'node:fs';

const cli = new URL('../lib/cli/main.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('aula: lib/ is missing (a checkout of the source): run `npm run compile` first');
  process.exit(1);
}
await import(cli.href);
