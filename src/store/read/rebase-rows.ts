// The event rows served under another base URL than the one they were built with (`aula serve
// --base-url`): a media file's URL names the base URL, so it is rewritten — in the bytes, not
// through JSON.parse and back (~90 µs a row, a block of seconds at 100k events). Exact because a
// media object's `"url":"` can only be a key there: inside a JSON string a quote is escaped. The
// search is confined to the fields that hold media objects (header_image, media, related_media),
// so an event's own `url` or a body that quotes a media URL stays as built, as a build with the
// other base URL would write it.
import { EVENT_FIELDS, mediaUrl } from '../../model/event-fields.ts';
import { EventRows, FIELD_COUNT } from '../format/event-rows.ts';
import { partRows } from '../format/row-source.ts';
import { compactOffsets } from './row-offsets.ts';

const STRIDE = FIELD_COUNT + 1;
/** The fields that hold media objects. */
const IN_MEDIA_FIELD = new Uint8Array(FIELD_COUNT);
for (const f of ['media', 'header_image', 'related_media'] as const) IN_MEDIA_FIELD[EVENT_FIELDS.indexOf(f)] = 1;
const NEWLINE = Buffer.from('\n');
/** Rows read (from a file: in one read) and rewritten at a time: the rewritten rows are held in parts of this many. */
const CHUNK_ROWS = 4096;

/** `rows` with every media URL written with base URL `from` rewritten for `to`, held in memory. */
export function rebaseRows(rows: EventRows, from: string, to: string): EventRows {
  const needle = Buffer.from(`"url":"${mediaUrl(from, 0).slice(0, -2)}`);
  const replacement = Buffer.from(`"url":"${mediaUrl(to, 0).slice(0, -2)}`);
  const grows = replacement.length - needle.length;
  const starts = new Uint32Array(rows.starts.length);
  const chunks: Buffer[] = [];
  for (let first = 0; first < rows.length; first += CHUNK_ROWS) {
    const out: Uint8Array[] = [];
    rows.eachRow(null, first, Math.min(first + CHUNK_ROWS, rows.length), (row, bytes) => {
      const base = row * STRIDE;
      let copied = 0;
      let shift = 0;
      let field = 0;
      for (let hit = bytes.indexOf(needle); hit !== -1; hit = bytes.indexOf(needle, hit + 1)) {
        // the field the hit is in; the fields before it keep their shift so far
        for (; rows.starts[base + field + 1] <= hit; field++) starts[base + field + 1] = rows.starts[base + field + 1] + shift;
        if (!IN_MEDIA_FIELD[field]) continue;
        out.push(bytes.subarray(copied, hit), replacement);
        copied = hit + needle.length;
        shift += grows;
      }
      for (; field < FIELD_COUNT; field++) starts[base + field + 1] = rows.starts[base + field + 1] + shift;
      starts[base] = rows.starts[base];
      out.push(bytes.subarray(copied));
      if (row < rows.length - 1) out.push(NEWLINE);
    });
    chunks.push(Buffer.concat(out));
  }
  // (never as a Buffer, which EventRows would check row by row: these bytes may not be checked
  // yet, and a damaged row is the rows check's to name)
  return new EventRows(partRows(chunks), compactOffsets(starts));
}
