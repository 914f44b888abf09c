// The module workerd and Cloudflare Workers load. Only the default export: the runtime treats
// every named export as an entrypoint.
import { handle } from './handler.ts';

export default { fetch: handle };
