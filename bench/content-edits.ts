// The edits the bench times (issue 16): one event's title changed in its file, one event added in
// a new file, one deleted with its file. Events in Markdown files (the generator's usual form,
// one event per file, YAML front matter) so each edit touches exactly one event.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The front matter of a Markdown event file: between a leading `---` line and the next one. */
function frontMatterEnd(text: string): number {
  if (!text.startsWith('---\n')) throw new Error('not a Markdown file with front matter');
  const end = text.indexOf('\n---', 3);
  if (end < 0) throw new Error('front matter not closed');
  return end;
}

/** The value of a top-level `key: value` line of the front matter, as written. */
export function frontMatterValue(text: string, key: string): string | undefined {
  const head = text.slice(0, frontMatterEnd(text));
  return new RegExp(`^${key}:[ \\t]*(.*)$`, 'm').exec(head)?.[1];
}

/**
 * The same file with one top-level front-matter line replaced: what an editor saving a changed
 * field leaves. `value` is written as given (a JSON string is valid YAML for a title).
 */
export function setFrontMatter(text: string, key: string, value: string): string {
  const end = frontMatterEnd(text);
  const head = text.slice(0, end);
  const line = new RegExp(`^${key}:.*$`, 'm').exec(head);
  if (!line) throw new Error(`no ${key}: line in the front matter`);
  return head.slice(0, line.index) + `${key}: ${value}` + head.slice(line.index + line[0].length) + text.slice(end);
}

/** Every Markdown event file under content/events, relative to the content folder, sorted. */
export function markdownEvents(contentDir: string): string[] {
  return readdirSync(join(contentDir, 'events'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => join(e.parentPath, e.name).slice(contentDir.length + 1).split('\\').join('/'))
    .sort();
}

/**
 * A number above every id-like number in the events folder (event ids, and nested ids of other
 * kinds, which only make it larger): an id no event has.
 */
export function unusedEventId(contentDir: string): number {
  let max = 0;
  for (const e of readdirSync(join(contentDir, 'events'), { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const text = readFileSync(join(e.parentPath, e.name), 'utf8');
    for (const m of text.matchAll(/\bid["']?\s*:\s*(\d+)/g)) max = Math.max(max, Number(m[1]));
  }
  return max + 1;
}
