#!/bin/sh
":" //; case ":$GLIBC_TUNABLES" in *:glibc.malloc.hugetlb=*) ;; *) GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1"; export GLIBC_TUNABLES ;; esac; exec node "$0" "$@"
// Runs the compiled CLI in lib/ (built by `npm run compile`, which `npm ci` and `npm pack` run).
// Started as a program (node_modules/.bin/aula, an npm script's `aula build`), the shell reads the
// line above and replaces itself with node (the same process, so signals reach node), started with
// glibc's tunable for transparent huge pages on what malloc maps (src/util/huge-pages.ts says why;
// a hugetlb setting of the user's is kept): glibc reads its tunables only when a program starts.
// Node reads that line as a string and a comment; `node bin/aula.cjs` runs without the tunable.
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
