#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx aula …` works after `npm ci` without a compile step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
