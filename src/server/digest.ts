// The ETag hash on node: native SHA-1, the same digest as the core's portable default.
import { createHash } from 'node:crypto';
import type { Digest } from '../api/respond.ts';

export const nodeDigest: Digest = (body) => createHash('sha1').update(body).digest('base64url');
