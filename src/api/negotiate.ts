// Which renderer answers: JSON for API clients, the browsable HTML page for browsers.
// `format` narrows the choice as in DRF (unknown → 404); `Accept` picks among what is left.

export type Renderer = 'json' | 'html';
export type Negotiation = { ok: true; renderer: Renderer } | { ok: false; status: 404 | 406 };

const MEDIA: Record<Renderer, string> = { json: 'application/json', html: 'text/html' };

interface Range {
  type: string;
  subtype: string;
  q: number;
}

/** RFC 9110's qvalue: 0 to 1, at most three decimals. */
const QVALUE = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

function parseAccept(header: string): Range[] {
  const ranges: Range[] = [];
  for (const part of header.split(',')) {
    const [mediaRange, ...params] = part.split(';');
    const [type, subtype] = mediaRange.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const p of params) {
      const [name, value] = p.split('=').map((s) => s.trim());
      // a weight that is no qvalue (`q=abc`, `q=2`) is ignored, as DRF ignores every weight: the
      // range stays acceptable rather than turning the answer into a 406
      if (name.toLowerCase() === 'q' && value !== undefined && QVALUE.test(value)) q = Number(value);
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

// The q the client gives a media type and how specifically it names it (2: type/subtype, 1:
// type/*, 0: */*), both of the most specific range matching it; q 0 when none does.
function quality(ranges: readonly Range[], media: string): { q: number; specificity: number } {
  const [type, subtype] = media.split('/');
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    const specificity = r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' && r.subtype === '*' ? 0 : -1;
    if (specificity > best) {
      best = specificity;
      q = r.q;
    }
  }
  return { q, specificity: best };
}

/**
 * Decisions by (format, Accept): clients send a handful of distinct Accept headers, and parsing
 * one took 3–6 % of a small answer's CPU (in process, detail pages). Short headers only, and
 * forgotten all at once when MEMO_ENTRIES are held. The decisions are shared: never mutated.
 */
const MEMO_ENTRIES = 256;
const MEMO_HEADER = 256;
const memo = new Map<string, Negotiation>();

/** the decision for a request with neither (most API clients, every load generator) */
let plain: Negotiation | undefined;

export function negotiate(format: string | undefined, accept: string | undefined): Negotiation {
  if (format === undefined && accept === undefined) return (plain ??= decide(undefined, undefined));
  if (accept !== undefined && accept.length > MEMO_HEADER) return decide(format, accept);
  // the format's length first: no pair of (format, Accept) shares a key
  const f = format ?? '';
  const key = `${f.length}:${f}${accept ?? ''}`;
  let decision = memo.get(key);
  if (decision === undefined) {
    decision = decide(format, accept);
    if (memo.size >= MEMO_ENTRIES) memo.clear();
    memo.set(key, decision);
  }
  return decision;
}

function decide(format: string | undefined, accept: string | undefined): Negotiation {
  // An empty `format` is no format at all (DRF tests it for truthiness); `json` leaves JSON alone.
  if (format && format !== 'api' && format !== 'json') return { ok: false, status: 404 };
  const ranges = parseAccept(accept?.trim() ? accept : '*/*');
  const json = quality(ranges, MEDIA.json);
  const html = format === 'json' ? { q: 0, specificity: -1 } : quality(ranges, MEDIA.html);
  // At equal weights the range naming the type more specifically wins, as DRF's precedence
  // (`text/html, */*` is a browser's page), and at equal specificity JSON, DRF's first renderer.
  if (html.q > json.q || (html.q === json.q && html.q > 0 && html.specificity > json.specificity)) return { ok: true, renderer: 'html' };
  if (json.q > 0) return { ok: true, renderer: 'json' };
  return { ok: false, status: 406 };
}
