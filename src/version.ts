// aula's own version, from package.json (node only: the edge worker does not need it).
import { readFileSync } from 'node:fs';

export const AULA_VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;
