// The event-list filters (issue 3): query parameters → the matching rows of an EventTable.
//
// Pure: no I/O, no response shaping. The caller (the list endpoint) pages the rows, renders 400s
// from `errors` and puts `ignored` into `X-Ignored-Parameters`. Semantics follow django-filter
// over PostgreSQL (see reference-behaviour.md) except where aula differs on purpose: timestamp
// contains/startswith match the rendered ISO text, date-only timestamps mean local midnight,
// `field__exact` equals `field`, bad booleans and bad regexes are 400s, regexes are RE2.
import type { QueryParams } from '../query-dict.ts';
import type { BoolField, EventTable, TextField, TimeField } from '../../store/format/event-table.ts';
import { FILTER_PARAMETER_NAMES, FILTER_PARAMETERS, type FilterParameter } from './catalog.ts';
import { indexesFor, type TableIndexes } from './indexes/table-indexes.ts';
import { BoolCondition } from './lookups/bool.ts';
import type { Clause, Condition } from './lookups/condition.ts';
import { IdCondition } from './lookups/id.ts';
import { RelationCondition } from './lookups/relation.ts';
import { TextCondition, type TextOptions } from './lookups/text.ts';
import { evaluateMatches, rowMatches } from './planner.ts';
import type { Matches } from './matches.ts';
import { cleanBoolean, cleanChoices, cleanNumber, cleanRegexLazily, cleanTimestamp, strip } from './values.ts';
import { activeMeter, charge } from '../work-budget.ts';
import type { EventRows } from '../../store/format/event-rows.ts';
import { SearchCondition } from './search/condition.ts';
import { SEARCH_PARAM } from './search/search.ts';
import { NULL_CHARACTERS, parseSearch } from './search/terms.ts';
import type { WordIndex } from './search/word-index.ts';
import { WORK } from './work-costs.ts';
import { MIN_SIEVED } from './result-cache.ts';

export { FILTER_CATALOG, FILTER_PARAMETERS, type FieldFilters, type FilterParameter, type Lookup, type ValueType } from './catalog.ts';

export interface FilterContext {
  /** IANA zone for naive and date-only timestamps */
  timezone: string;
  /** ids of the existing categories (valid choices of `categories`) */
  categoryIds: ReadonlySet<number>;
  /** what `search` answers from (search/): without it, `search` is not read */
  search?: { index: WordIndex; rows: EventRows };
}

export type FilterOutcome =
  /** rows: ascending row indices that match (possibly a view of a cached array: do not write
   *  to it); null = no filter applied (all rows) */
  | { ok: true; rows: Uint32Array | null; ignored: string[] }
  | { ok: false; errors: Record<string, string[]>; ignored: string[] };

export type MatchOutcome =
  /** matches: a count and pages of the ascending matching rows; null = no filter applied (all rows) */
  | { ok: true; matches: Matches | null; ignored: string[] }
  | { ok: false; errors: Record<string, string[]>; ignored: string[] };

/**
 * Filters the events of `table` by the filter parameters in `params`. `reserved` names the
 * parameters handled elsewhere (limit, offset, format, expand, …): neither filters nor ignored.
 */
export function filterEvents(table: EventTable, ctx: FilterContext, params: QueryParams, reserved: ReadonlySet<string>): FilterOutcome {
  return filterWithIndexes(indexesFor(table), ctx, params, reserved);
}

/** As filterEvents, as a count and pages: what a paged list needs, often without listing every match. */
export function matchEvents(table: EventTable, ctx: FilterContext, params: QueryParams, reserved: ReadonlySet<string>): MatchOutcome {
  return matchWithIndexes(indexesFor(table), ctx, params, reserved);
}

/** As filterEvents, on explicitly configured indexes (tests, benchmarks). */
export function filterWithIndexes(ix: TableIndexes, ctx: FilterContext, params: QueryParams, reserved: ReadonlySet<string>): FilterOutcome {
  const r = matchWithIndexes(ix, ctx, params, reserved);
  if (!r.ok || r.matches === null) return r.ok ? { ok: true, rows: null, ignored: r.ignored } : r;
  return { ok: true, rows: r.matches.slice(0, r.matches.count), ignored: r.ignored };
}

/** Each filter parameter's place in FILTER_PARAMETERS, by name. */
const CATALOG_POSITION: ReadonlyMap<string, number> = new Map(FILTER_PARAMETERS.map((p, i) => [p.name, i]));

/**
 * Whether the event at `row` is among those the filters leave (DRF's get_object over the filtered
 * queryset): the filters parsed and checked as the list's, then tested on that one row alone, so
 * a filter too costly over the whole table costs one test here.
 */
export function matchesRow(table: EventTable, ctx: FilterContext, params: QueryParams, reserved: ReadonlySet<string>, row: number | undefined): RowOutcome {
  const ix = indexesFor(table);
  const parsed = clausesOf(ix, ctx, params, reserved);
  if (!parsed.ok) return parsed;
  const { clauses, ignored } = parsed;
  return { ok: true, match: row !== undefined && (clauses.length === 0 || rowMatches(ix, clauses, row)), ignored };
}

export type RowOutcome = { ok: true; match: boolean; ignored: string[] } | { ok: false; errors: Record<string, string[]>; ignored: string[] };

/** As matchEvents, on explicitly configured indexes (tests, benchmarks). */
export function matchWithIndexes(ix: TableIndexes, ctx: FilterContext, params: QueryParams, reserved: ReadonlySet<string>): MatchOutcome {
  const parsed = clausesOf(ix, ctx, params, reserved);
  if (!parsed.ok) return parsed;
  const { clauses, key, ignored } = parsed;
  if (clauses.length === 0) return { ok: true, matches: null, ignored };
  const cached = ix.results.get(key);
  if (cached) return { ok: true, matches: cached, ignored };
  const meter = activeMeter();
  const before = meter?.used ?? 0;
  const { matches, sieved } = evaluateMatches(ix, clauses);
  // (most results are not kept: their parameters named only for one that may be)
  if (sieved >= MIN_SIEVED) {
    const what = clauses.map((c) => (c.kind === 'condition' ? c.condition.param : c.param)).join(', ');
    ix.results.offer(key, matches, sieved, (meter?.used ?? 0) - before, what);
  }
  return { ok: true, matches, ignored };
}

/** The request's filters as clauses, in catalog order, with what identifies them; or their errors. */
function clausesOf(ix: TableIndexes, ctx: FilterContext, params: QueryParams, reserved: ReadonlySet<string>) {
  const keys = params.keys();
  const ignored = keys.filter((k) => !reserved.has(k) && !FILTER_PARAMETER_NAMES.has(k));
  // the filters the request names, in catalog order: a request names a few of the catalog's
  // parameters or none, so they are found from its keys rather than by asking for each parameter
  const asked: number[] = [];
  for (const k of keys) {
    const at = CATALOG_POSITION.get(k);
    if (at === undefined || reserved.has(k)) continue;
    // kept in order as they come (an insertion: sort() allocates a work array per call)
    let j = asked.length;
    asked.push(at);
    for (; j > 0 && asked[j - 1] > at; j--) asked[j] = asked[j - 1];
    asked[j] = at;
  }
  const search = searchClause(ctx, params);
  if (asked.length === 0 && search === null) return { ok: true as const, clauses: [] as Clause[], key: '', ignored };
  const errors: Record<string, string[]> = {};
  let failed = false;
  const clauses: Clause[] = [];
  // what the result depends on: each clause's parameter and parsed value, in catalog order
  let key = '';
  for (const at of asked) {
    const p = FILTER_PARAMETERS[at];
    const r = toClause(p, params, ctx, ix);
    if (r === null) continue;
    if ('error' in r) {
      errors[p.name] = [r.error];
      failed = true;
    } else if (!failed) {
      clauses.push(r.clause);
      key += `${p.name}=${JSON.stringify(r.key)}\n`; // quoted: a value may hold a newline
    }
  }
  // DRF's SearchFilter runs after django-filter: its error shows only when the filters have none
  if (!failed && search !== null && 'error' in search) {
    errors[SEARCH_PARAM] = [search.error];
    failed = true;
  } else if (!failed && search !== null && 'clause' in search) {
    clauses.push(search.clause);
    key += `${SEARCH_PARAM}=${search.key}\n`;
  }
  if (failed) return { ok: false as const, errors, ignored };
  return { ok: true as const, clauses, key, ignored };
}

/** `search`'s clause (null: no search asked, or no term in it). */
function searchClause(ctx: FilterContext, params: QueryParams): ClauseOrError {
  const value = ctx.search && params.get(SEARCH_PARAM);
  if (!value) return null;
  const parsed = parseSearch(value);
  if (!parsed.ok) return { error: parsed.error };
  if (parsed.terms.length === 0) return null;
  const { index, rows } = ctx.search!;
  return { clause: { kind: 'condition', condition: new SearchCondition(index, rows, parsed.terms) }, key: JSON.stringify(parsed.terms) };
}

/** A parsed filter and what identifies its value (the text as given, or the parsed value). */
type ClauseOrError = { clause: Clause; key: string } | { error: string } | null;

const condition = (c: Condition, key: string) => ({ clause: { kind: 'condition', condition: c } as Clause, key });

function toClause(p: FilterParameter, params: QueryParams, ctx: FilterContext, ix: TableIndexes): ClauseOrError {
  if (p.type === 'id-list') return relationClause(p, params, ctx, ix);
  // single-valued: the last value wins (QueryDict.get), stripped; empty means "no filter"
  const text = strip(params.get(p.name) ?? '');
  if (text === '') return null;
  const lookup = p.lookup;
  switch (p.type) {
    case 'string': {
      // Django's CharField refuses a NUL before any lookup sees the value
      if (text.includes('\0')) return { error: NULL_CHARACTERS };
      const field = p.field as TextField;
      const options: TextOptions = { trigrams: true, fewRows: ix.options.fewRows };
      if (lookup === 'regex' || lookup === 'iregex') {
        const re = cleanRegexLazily(text, lookup === 'iregex', p.name);
        if (!re.ok) return { error: re.message };
        return condition(new TextCondition(p.name, ix.text(field), lookup, text, re.value, options), text);
      }
      return condition(new TextCondition(p.name, ix.text(field), lookup as 'exact', text, null, options), text);
    }
    case 'datetime': {
      const field = p.field as TimeField;
      if (lookup === 'contains' || lookup === 'startswith') {
        // ISO text has a dozen distinct characters: trigrams would not narrow anything down
        const options: TextOptions = { trigrams: false, fewRows: ix.options.fewRows };
        return condition(new TextCondition(p.name, ix.iso(field), lookup, text, null, options), text);
      }
      const t = cleanTimestamp(text, ctx.timezone);
      if (!t.ok) return { error: t.message };
      return { clause: { kind: 'compare', param: p.name, column: field, op: lookup as 'exact', value: t.value }, key: String(t.value) };
    }
    case 'number': {
      const n = cleanNumber(text);
      if (!n.ok) return { error: n.message };
      if (p.field === 'id') return condition(new IdCondition(p.name, n.value, ix), String(n.value));
      return { clause: { kind: 'compare', param: p.name, column: 'dfp_points', op: lookup as 'exact', value: n.value }, key: String(n.value) };
    }
    case 'boolean': {
      const b = cleanBoolean(text);
      if (!b.ok) return { error: b.message };
      return condition(new BoolCondition(p.name, p.field as BoolField, b.value, ix), String(b.value));
    }
  }
  return null;
}

function relationClause(p: FilterParameter, params: QueryParams, ctx: FilterContext, ix: TableIndexes): ClauseOrError {
  const all = params.getAll(p.name);
  // each id is read, checked, and (below) looked up: a loop a request can make 10,000 long
  charge(all.length * WORK.id, p.name);
  const texts = all.map(strip).filter((t) => t !== '');
  if (texts.length === 0) return null;
  const field = p.field as 'categories' | 'groups';
  const index = ix.relation(field);
  const known = field === 'categories' ? categoryTexts(ctx.categoryIds) : null;
  const ids = cleanChoices(texts, (t) => (known ? known.has(t) : index.hasIdText(t)));
  if (!ids.ok) return { error: ids.message };
  return condition(new RelationCondition(p.name, index, ids.value, ix), [...ids.value].sort((a, b) => a - b).join(','));
}

const categoryTextCache = new WeakMap<ReadonlySet<number>, ReadonlySet<string>>();
function categoryTexts(ids: ReadonlySet<number>): ReadonlySet<string> {
  let t = categoryTextCache.get(ids);
  if (!t) {
    t = new Set([...ids].map(String));
    categoryTextCache.set(ids, t);
  }
  return t;
}
