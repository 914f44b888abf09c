// A file system without hard links, as FAT's, for `node --require` (test/no-hard-links.test.ts):
// every link refused with EPERM, in node:fs and node:fs/promises alike.
const fs = require('node:fs');
const fsp = require('node:fs/promises');
const { syncBuiltinESMExports } = require('node:module');

const refused = (from, to) => Object.assign(new Error(`EPERM: operation not permitted, link '${from}' -> '${to}'`), { code: 'EPERM', syscall: 'link' });
fs.linkSync = (from, to) => {
  throw refused(from, to);
};
fs.link = (from, to, done) => process.nextTick(done, refused(from, to));
fsp.link = async (from, to) => {
  throw refused(from, to);
};
syncBuiltinESMExports();
