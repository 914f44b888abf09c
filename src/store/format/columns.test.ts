import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../test/helpers.ts';
import { loadContent } from '../../content/load.ts';
import { generateContent } from '../../gen/content-generator.ts';
import type { Event } from '../../model/types.ts';
import { textColumnsJson, textColumnsOf } from './columns.ts';

let root: string;
let events: Event[];
beforeAll(async () => {
  root = tempDir('aula-columns-');
  await generateContent({ events: 300, directory: 5, seed: 4, outDir: join(root, 'content') });
  const { model } = await loadContent(join(root, 'content'));
  events = model!.events;
});
afterAll(() => removeDir(root));

describe('textColumnsJson', () => {
  it('writes the bytes of JSON.stringify(textColumnsOf(…)), text beyond Latin-1, nulls and separators included', () => {
    // what the generated text lacks: a line separator, a surrogate pair, an empty and a null value
    const odd = events.slice(0, 3).map((e, i) => ({ ...e, title: ['a\u2028b', '😀 „x“', ''][i], teaser: i === 0 ? null : e.teaser, registration_end: null }));
    const all = [...odd, ...events.slice(3)] as Event[];
    expect(all.some((e) => /[^\x00-\xff]/.test(e.title))).toBe(true);
    for (const zone of ['Europe/Vienna', 'UTC']) {
      const json = textColumnsJson(all, zone);
      expect(json.equals(Buffer.from(JSON.stringify(textColumnsOf(all, zone))))).toBe(true);
    }
    expect(textColumnsJson([], 'UTC').toString()).toBe(JSON.stringify(textColumnsOf([], 'UTC')));
  });
});
