#!/usr/bin/env node
// Runs the compiled CLI in lib/ (built by `npm run compile`, which `npm ci` and `npm pack` run).
// CommonJS, so that it runs before anything uses libuv's thread pool, whose size is read once, at
// its first use (the ES module loader's first read): a build removes the files a changed dist no
// longer holds many at once, and on a file system that discards freed blocks each removal waits
// on the device, so more of them in flight is what shortens the swap. A size the user set stays.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

process.env.UV_THREADPOOL_SIZE ??= '16';
const cli = join(__dirname, '..', 'lib', 'cli', 'main.js');
if (!existsSync(cli)) {
  console.error('aula: lib/ is missing (a checkout of the source): run `npm run compile` first');
  process.exit(1);
}
import(pathToFileURL(cli).href);
