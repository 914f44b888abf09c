// Events written in the three file forms: Markdown files, YAML lists and one JSON list.
import type { Random } from './random.ts';
import { blocksToHtml, blocksToMarkdown } from './event-body.ts';
import { EventGenerator, type EventContext, type EventFields, type GeneratedEvent } from './event-generator.ts';
import type { TreeWriter } from './tree-writer.ts';
import { slugify } from './vocabulary.ts';
import { pad2 } from './wall-time.ts';
import { toYaml } from './yaml-writer.ts';

type EventStorage = 'md' | 'yaml' | 'json';

function markdownFile(event: GeneratedEvent): string {
  return `---\n${toYaml(event.fields)}---\n\n${blocksToMarkdown(event.blocks)}\n`;
}

function markdownPath(event: GeneratedEvent): string {
  const date = new Date(event.startWall);
  const year = date.getUTCFullYear();
  const month = pad2(date.getUTCMonth() + 1);
  return `events/${year}/${month}/${event.id}-${slugify(event.title) || 'veranstaltung'}.md`;
}

function withHtmlBody(event: GeneratedEvent, bodyRepeat = 1): EventFields {
  const body = blocksToHtml(event.blocks);
  return { ...event.fields, body: bodyRepeat === 1 ? body : Array.from({ length: bodyRepeat }, () => body).join('\n') };
}

/**
 * How the events are spread over files: `files` (the default) mostly one Markdown file each, a
 * quarter in YAML lists; `lists` every event in a YAML list of a few, each body twice as
 * long — fewer, larger files, as a CMS export tends to write them.
 */
export type EventShape = 'files' | 'lists';

/** In `lists`: events per YAML list, and how many times a body's text stands in it. */
const LIST_EVENTS = 3;
const LIST_BODY_REPEAT = 2;

export function writeEvents(out: TreeWriter, rng: Random, count: number, ctx: EventContext, shape: EventShape = 'files'): void {
  if (shape === 'lists') return writeEventLists(out, rng, count, ctx);
  const generator = new EventGenerator(rng, ctx);
  // About a quarter go to YAML lists; five files or more, at most 50 events each.
  const yamlBatchSize = Math.min(50, Math.max(1, Math.ceil((count * 0.25) / 5)));
  // One JSON list with two events (one for tiny sets), so the .json path is always used.
  const jsonIndexes = new Set(count >= 10 ? [1, count - 2] : count >= 2 ? [1] : []);

  let yamlBatch: EventFields[] = [];
  let yamlFiles = 0;
  const jsonEvents: EventFields[] = [];
  const flushYaml = (): void => {
    if (yamlBatch.length === 0) return;
    out.write(`events/batch-${++yamlFiles}.yaml`, toYaml(yamlBatch));
    yamlBatch = [];
  };

  for (let i = 0; i < count; i++) {
    const event = generator.next();
    const storage: EventStorage = jsonIndexes.has(i) ? 'json' : rng.chance(0.25) ? 'yaml' : 'md';
    if (storage === 'md') {
      out.write(markdownPath(event), markdownFile(event));
    } else if (storage === 'json') {
      jsonEvents.push(withHtmlBody(event));
    } else {
      yamlBatch.push(withHtmlBody(event));
      if (yamlBatch.length >= yamlBatchSize) flushYaml();
    }
  }
  flushYaml();
  if (jsonEvents.length > 0) out.write('events/import/cms-export.json', `${JSON.stringify(jsonEvents, null, 2)}\n`);
}

function writeEventLists(out: TreeWriter, rng: Random, count: number, ctx: EventContext): void {
  const generator = new EventGenerator(rng, ctx);
  let list: EventFields[] = [];
  let files = 0;
  const flush = (): void => {
    if (list.length === 0) return;
    const n = ++files;
    // a hundred lists a folder
    out.write(`events/lists/${String(Math.floor(n / 100)).padStart(4, '0')}/list-${n}.yaml`, toYaml(list));
    list = [];
  };
  for (let i = 0; i < count; i++) {
    list.push(withHtmlBody(generator.next(), LIST_BODY_REPEAT));
    if (list.length >= LIST_EVENTS) flush();
  }
  flush();
}
