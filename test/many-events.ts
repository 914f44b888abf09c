// A content folder of many small events: enough of them for event-list pages past the offset
// below which pages get .gz/.br twins (precompress.ts, TWINNED_EVENTS), at little build cost.
import { writeContent } from './helpers.ts';

/** `count` events (ids 1…count, one a day from 2025-01-01), cut into pages of `pageSize`. */
export function manyEventsContent(dir: string, count: number, pageSize: number): string {
  const files: Record<string, string> = {
    'site.yaml': `base_url: https://events.example.at/\ntimezone: Europe/Vienna\npage_size: ${pageSize}\n`,
  };
  const day = Date.UTC(2025, 0, 1);
  for (let id = 1; id <= count; id++) {
    const start = new Date(day + (id - 1) * 86_400_000).toISOString().slice(0, 10);
    files[`events/e${id}.md`] = `---\nid: ${id}\ntitle: Veranstaltung ${id}\nstart: ${start}T10:00:00+01:00\nend: ${start}T12:00:00+01:00\nlast_modified: 2024-12-01T08:00:00Z\n---\nText ${id}.\n`;
  }
  return writeContent(dir, files);
}
