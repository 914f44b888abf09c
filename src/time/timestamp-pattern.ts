// The timestamp grammar of src/time/parse.ts as a JSON Schema `pattern` (ECMA-262, as ajv and
// editors run it), shared by the content schemas and the OpenAPI filter parameters. Written out
// rather than derived because the parser checks ranges in code; timestamp-pattern.test.ts keeps
// the two in agreement.

/**
 * Date, optionally `T` or a space, h:mm[:ss[.fraction]], optional `Z` or ±hh[:mm[:ss]]; no offset =
 * site time zone. Years outside 1…9999 (in UTC or in the site zone) are refused by the parser only.
 */
export const TIMESTAMP_PATTERN =
  '^\\d{4}-(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\\d|3[01])' +
  '(?:[T ](?:[01]?\\d|2[0-3]):[0-5]?\\d(?::[0-5]?\\d(?:[.,]\\d{1,12})?)?\\s*(?:Z|[+-](?:[01]\\d|2[0-3])(?::[0-5]\\d(?::[0-5]\\d)?|[0-5]\\d)?)?)?$';

export const TIMESTAMP_EXAMPLES = ['2025-05-12T18:00:00+02:00', '2025-05-12T16:00:00Z', '2025-05-12 18:00', '2025-05-12'];
