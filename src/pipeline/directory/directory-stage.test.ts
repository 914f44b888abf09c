import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseDirectoryFile } from '../../content/directory.ts';
import type { Parsed } from '../../content/records.ts';
import { directoryOnPool } from './directory-stage.ts';

const options = { content: '.', out: 'dist', minisearch: false, precompress: false };
const parses = (...texts: string[]) => texts.map((text, i) => parseDirectoryFile(`directory/${i}.yaml`, text)) as Parsed<unknown>[];
const rooms = '- {model: geo.Room, id: 2, name: B}\n- {model: campus.Room, id: 9, name: C}\n';

describe('directoryOnPool', () => {
  it('hands the directory to its job only when nothing so far has a problem, with its problems and issues', async () => {
    const clean = await directoryOnPool(options, Promise.resolve(parses(rooms, '- {model: geo.Room, id: 1, name: A}\n')), () => null, true);
    expect(clean).toMatchObject({ problems: [], issues: [] });
    expect(clean.stage?.count).toBe(3);
    clean.stage!.job.cancel();
    // a problem before the directory: its files are checked all the same, and not handed over
    expect((await directoryOnPool(options, Promise.resolve(parses(rooms)), () => null, false)).stage).toBeNull();
    const repeated = await directoryOnPool(options, Promise.resolve(parses(rooms, '- {model: geo.Room, id: 2, name: A}\n')), () => null, true);
    expect(repeated.stage).toBeNull();
    expect(repeated.issues.map((i) => i.file)).toEqual(['directory/0.yaml', 'directory/1.yaml']);
    const broken = await directoryOnPool(options, Promise.resolve(parses(rooms, 'id: [\n')), () => null, true);
    expect(broken.stage).toBeNull();
    expect(broken.problems.map((p) => p.file)).toEqual(['directory/1.yaml']);
  });

  it('holds neither the parses nor the records once the job has them (the events are parsed meanwhile)', async () => {
    let held: WeakRef<object>[] = [];
    const parsing = async () => {
      const parsed = parses(rooms);
      held = [new WeakRef(parsed), new WeakRef(parsed[0]), new WeakRef(parsed[0].records[0])];
      return parsed;
    };
    const { stage } = await directoryOnPool(options, parsing(), () => null, true);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // a WeakRef's target lives to the end of the turn that made it: collected from a later turn on
    await expect.poll(() => (gc(), held.map((ref) => ref.deref() === undefined))).toEqual([true, true, true]);
    stage!.job.cancel();
  });
});
