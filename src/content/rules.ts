// The vocabulary of content rules: what one key of a content object may hold. A rule is plain
// data, read twice: by Fields, which validates a parsed object against it, and by
// docs/content-schemas.ts, which writes it out as JSON Schema for editors. Declaring a key once
// here is what keeps the loader and the published schemas from drifting apart.

/** How a value is read: its JSON type, whether null is allowed, list element types. */
export type RuleKind =
  | 'int'
  | 'intOrNull'
  | 'string'
  | 'stringOrNull'
  | 'bool'
  | 'any'
  | 'list'
  | 'intList'
  | 'stringList'
  | 'objectList'
  | 'timestamp'
  | 'timestampOrNull';

/** Kinds Fields.read handles; timestamps need a zone and object lists a reader per element. */
export type ValueKind = Exclude<RuleKind, 'objectList' | 'timestamp' | 'timestampOrNull'>;

/** A lower bound on an integer, with what the message calls a valid value ("a positive integer"). */
export interface Minimum {
  readonly value: number;
  readonly expected: string;
}

/** One value an integer key must not take, and why. */
export interface Excluded {
  readonly value: number;
  readonly message: string;
}

/** Checks beyond the type; a value failing one reads as the key's fallback, like a mistyped one. */
export interface Constraints {
  readonly minimum?: Minimum;
  readonly excluded?: Excluded;
  /** allowed strings; the message lists them */
  readonly oneOf?: readonly string[];
  /** a string of at least one character other than white space (a title, a name) */
  readonly nonEmpty?: boolean;
  /** a string on one line: no line break nor other control character (an e-mail address) */
  readonly oneLine?: boolean;
  /** a list whose items are each listed once; `what` names an item in the problem */
  readonly unique?: { readonly what: string };
  /**
   * A regular expression for the schema only: the reader checks the same thing more exactly
   * in code (e.g. base_url is parsed as a URL), with a message per way it can be wrong.
   */
  readonly schemaPattern?: string;
  readonly examples?: readonly unknown[];
  /** required unless this other key holds a string; the key's fallback is then null */
  readonly requiredUnless?: string;
}

export interface Rule<T = unknown, K extends RuleKind = RuleKind> extends Constraints {
  readonly kind: K;
  /** the key's name, filled in by `shape` */
  readonly key: string;
  readonly description: string;
  /** always required; a key with `requiredUnless` is not, Fields decides per object */
  readonly required: boolean;
  /** the value of an absent key, and of an invalid one when the key is optional */
  readonly fallback: T | undefined;
  /** for objectList: the shape of each element */
  readonly items?: Shape;
}

export type AnyRule = Rule<unknown, RuleKind>;

/** The rules of one kind of object. */
export interface Shape<F extends Record<string, AnyRule> = Record<string, AnyRule>> {
  /** its name under `$defs` in a schema */
  readonly name: string;
  readonly description: string;
  readonly fields: F;
  /** Keys beyond the declared ones are the object's own and kept (categories), not refused. */
  readonly open: boolean;
}

/** Names each rule after its key. Rules are made fresh for one shape, so they are filled in place. */
export function shape<F extends Record<string, AnyRule>>(name: string, description: string, fields: F, open = false): Shape<F> {
  for (const [key, rule] of Object.entries(fields)) (rule as { key: string }).key = key;
  return { name, description, fields, open };
}

// The constructors below only fix the value type each kind reads as; overloads say when a
// fallback makes the result always defined.

function rule<T, K extends RuleKind>(kind: K, description: string, required: boolean, fallback: T | undefined, more: Constraints = {}, items?: Shape): Rule<T, K> {
  const conditional = more.requiredUnless !== undefined;
  // Every rule gets every property, in one order, so that Fields.read sees one object layout
  // however many kinds of rule a record has (it runs for every key of 100k records).
  return {
    kind,
    key: '',
    description,
    required: required && !conditional,
    fallback: (required && conditional ? null : fallback) as T,
    minimum: more.minimum,
    excluded: more.excluded,
    oneOf: more.oneOf,
    nonEmpty: more.nonEmpty,
    oneLine: more.oneLine,
    unique: more.unique,
    schemaPattern: more.schemaPattern,
    examples: more.examples,
    requiredUnless: more.requiredUnless,
    items,
  };
}

type Optional<D> = Constraints & { default: D };

export function int(description: string, more?: Constraints & { requiredUnless?: undefined }): Rule<number | undefined, 'int'>;
export function int(description: string, more: Constraints & { requiredUnless: string }): Rule<number | null | undefined, 'int'>;
export function int<D>(description: string, more: Optional<D>): Rule<number | D, 'int'>;
export function int(description: string, more: Constraints & { default?: unknown } = {}): AnyRule {
  const { default: fallback, ...rest } = more;
  return rule('int', description, !('default' in more), fallback, rest);
}

export function string(description: string, more?: Constraints & { requiredUnless?: undefined }): Rule<string | undefined, 'string'>;
export function string(description: string, more: Constraints & { requiredUnless: string }): Rule<string | null | undefined, 'string'>;
export function string<D>(description: string, more: Optional<D>): Rule<string | D, 'string'>;
export function string(description: string, more: Constraints & { default?: unknown } = {}): AnyRule {
  const { default: fallback, ...rest } = more;
  return rule('string', description, !('default' in more), fallback, rest);
}

export const intOrNull = (description: string): Rule<number | null, 'intOrNull'> => rule('intOrNull', description, false, null);
export const stringOrNull = (description: string, more?: Constraints): Rule<string | null, 'stringOrNull'> =>
  rule('stringOrNull', description, false, null, more);
export const bool = (description: string, fallback: boolean): Rule<boolean, 'bool'> => rule('bool', description, false, fallback);
/** Any value, passed through; absent reads as null. */
export const anyValue = (description: string): Rule<unknown, 'any'> => rule('any', description, false, null);
/** A list of anything, passed through. */
export const list = (description: string): Rule<unknown[], 'list'> => rule('list', description, false, []);
export const intList = (description: string, more?: Constraints): Rule<number[], 'intList'> => rule('intList', description, false, [], more);
export const stringList = (description: string): Rule<string[], 'stringList'> => rule('stringList', description, false, []);
export const objectList = (description: string, items: Shape): Rule<unknown[], 'objectList'> =>
  rule('objectList', description, false, [], {}, items);
export const timestamp = (description: string): Rule<number | undefined, 'timestamp'> => rule('timestamp', description, true, undefined);
export const timestampOrNull = (description: string): Rule<number | null, 'timestampOrNull'> =>
  rule('timestampOrNull', description, false, null);
