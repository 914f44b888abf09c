// The browsable page a browser gets instead of JSON: the same response, pretty-printed, with
// its links clickable and the request's parameters listed. Every piece of data is escaped.
import { bodyText } from './body.ts';
import { escapeHtml, prettyJsonHtml } from './pretty-json.ts';
import type { QueryParams } from '../query/query-dict.ts';
import type { ApiResponse } from './respond.ts';

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 400: 'Bad Request', 404: 'Not Found', 406: 'Not Acceptable' };

/**
 * The answer's `next` or `previous` link. A page's envelope names them before its results, so
 * only that head is parsed: parsing a 1,000-event page whole for two links cost more than
 * printing it.
 */
function linkOf(body: string, key: 'next' | 'previous'): string | null {
  const results = body.startsWith('{"count":') ? body.indexOf(',"results":') : -1;
  const value = (results === -1 ? null : parsedObject(`${body.slice(0, results)}}`)) ?? parsedObject(body);
  const link = value?.[key];
  return typeof link === 'string' && /^https?:\/\//.test(link) ? link : null;
}

function parsedObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Characters of an answer's JSON the page shows: about 200 events. Escaping and linking cost tens
 * of nanoseconds a character, so a whole 1,000-event page would cost more work than a request
 * may do (query/work-budget.ts); the JSON form of the answer is always whole.
 */
export const SHOWN_JSON = 500_000;

export interface PageInfo {
  name: string;
  /** what the client asked for, as the path and raw query it sent */
  requestLine: string;
  /** the same request's absolute URL with `format=json`, for an answer too large to show whole */
  jsonUrl: string;
  params: QueryParams;
}

export function renderHtml(response: ApiResponse, info: PageInfo): string {
  const body = bodyText(response.body);
  const headers = Object.entries(response.headers)
    .map(([k, v]) => `<b>${escapeHtml(k)}:</b> ${escapeHtml(v)}`)
    .join('\n');
  const filters = info.params.pairs.length
    ? `<table class="params"><caption>Parameters</caption>${info.params.pairs
        .map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
        .join('')}</table>`
    : '';
  const nav = (['previous', 'next'] as const)
    .map((key) => linkOf(body, key))
    .map((url, i) => (url ? `<a rel="${i ? 'next' : 'prev'}" href="${escapeHtml(url)}">${i ? 'Next »' : '« Previous'}</a>` : ''))
    .join(' ');
  const title = escapeHtml(info.name);
  const pretty = prettyJsonHtml(body, SHOWN_JSON);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} – aula</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem 1.5rem;color:#222}
h1{font-size:1.5rem;margin:.5rem 0}
.request{font-family:ui-monospace,monospace;background:#eef;padding:.4rem .6rem;border-radius:4px;overflow-wrap:anywhere}
.params{border-collapse:collapse;margin:.8rem 0}.params caption{text-align:left;font-weight:600}
.params th,.params td{border:1px solid #ccd;padding:.2rem .5rem;text-align:left;font-family:ui-monospace,monospace}
nav{margin:.8rem 0}nav a{margin-right:1rem}
pre{background:#f7f7f9;border:1px solid #e1e1e8;padding:.8rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
</style>
</head>
<body>
<h1>${title}</h1>
<p class="request"><b>GET</b> ${escapeHtml(info.requestLine)}</p>
${filters}
<nav>${nav}</nav>
<pre class="response"><b>HTTP ${response.status} ${STATUS_TEXT[response.status] ?? ''}</b>
${headers}

${pretty.html}${pretty.whole ? '' : '\n…'}</pre>${pretty.whole ? '' : `\n<p class="cut">The answer has ${body.length} characters of JSON; this page shows the first ${SHOWN_JSON}. <a href="${escapeHtml(info.jsonUrl)}">The whole answer as JSON</a></p>`}
</body>
</html>
`;
}
