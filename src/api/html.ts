// The browsable page a browser gets instead of JSON: the same response, pretty-printed, with
// its links clickable and the request's parameters listed. Every piece of data is escaped.
import { bodyText } from './body.ts';
import type { QueryParams } from '../query/query-dict.ts';
import type { ApiResponse } from './respond.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Not entities' escapeUTF8: it writes &apos; where these pages have always had &#39;.
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 400: 'Bad Request', 404: 'Not Found', 406: 'Not Acceptable' };

function prettyBody(body: string): string {
  let pretty: string;
  try {
    pretty = JSON.stringify(JSON.parse(body), null, 4);
  } catch {
    pretty = body;
  }
  // Only absolute http(s) strings become links; the escaped text cannot hold a quote, so the
  // captured URL cannot break out of the attribute.
  return escapeHtml(pretty).replace(/&quot;(https?:\/\/[^\s&]*(?:&amp;[^\s&]*)*?)&quot;/g, (_, url: string) => `&quot;<a href="${url}">${url}</a>&quot;`);
}

function linkOf(body: string, key: 'next' | 'previous'): string | null {
  try {
    const value = (JSON.parse(body) as Record<string, unknown>)[key];
    return typeof value === 'string' && /^https?:\/\//.test(value) ? value : null;
  } catch {
    return null;
  }
}

export interface PageInfo {
  name: string;
  /** what the client asked for, as the path and raw query it sent */
  requestLine: string;
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

${prettyBody(body)}</pre>
</body>
</html>
`;
}
