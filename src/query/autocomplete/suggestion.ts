// One suggestion as compact JSON. Server and browser bundle both render through this function,
// which is what makes their outputs byte-identical.

/** `{"id":…,"ctype":…,"presentation":…,"level_id":…,"room_id":…}`, presentation ending in "\n". */
export function renderSuggestion(
  id: number,
  ctype: string,
  presentation: string,
  level_id: number | null,
  room_id: number | null,
): string {
  // Building the object literal in spec order fixes the key order; JSON.stringify writes
  // non-ASCII text raw (no \u escapes), as the reference does.
  return JSON.stringify({ id, ctype, presentation: presentation + '\n', level_id, room_id });
}
