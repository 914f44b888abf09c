// The examples of the README and docs/ that query a server, against the bundled sample served by
// a real `aula serve`: every `curl` line of a `curl` block (and every curl in the README's
// prose) must answer 200 with something in it; an `answer <path>` block is the body that path
// answers; an `access-log` block has the shape of the server's log lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAula, type AulaProcess } from './aula-cli.ts';
import { sampleDist } from './helpers.ts';
import { at, blocksFor, docText } from './docs/doc-blocks.ts';

const DOC_ORIGIN = 'http://127.0.0.1:8000';

const URL_IN_CURL = /\bcurl(?:\s+-[a-zA-Z]+)*\s+'?(https?:\/\/[^\s'`]+)/g;

/** Every URL a `curl` block of the pages asks for, and the curls in the README's prose. */
export function docCurlUrls(): string[] {
  const inBlocks = blocksFor('curl').flatMap((b) => [...b.text.matchAll(URL_IN_CURL)].map((m) => m[1]));
  const prose = docText('README.md').replace(/```[\s\S]*?```/g, '');
  return [...inBlocks, ...[...prose.matchAll(URL_IN_CURL)].map((m) => m[1])];
}

let serve: AulaProcess | undefined;
let origin: string;

beforeAll(async () => {
  serve = startAula(['serve', '--dist', sampleDist(), '--port', '0']);
  origin = await serve.origin;
});

afterAll(() => serve?.stop());

const fromDocs = (url: string) => origin + url.slice(DOC_ORIGIN.length);

describe('the curl examples of the README and docs/, on the bundled sample', () => {
  const urls = docCurlUrls();

  it('finds the examples', () => {
    expect(urls.length).toBeGreaterThanOrEqual(20);
    for (const url of urls) expect(url.startsWith(`${DOC_ORIGIN}/`), url).toBe(true);
  });

  it.each(urls)('%s answers something', async (url) => {
    const res = await fetch(fromDocs(url));
    const text = await res.text();
    expect(res.status, text.slice(0, 200)).toBe(200);
    expect(text.length).toBeGreaterThan(0);
    if ((res.headers.get('content-type') ?? '').startsWith('application/json')) {
      const body = JSON.parse(text);
      if ('count' in body) expect(body.count, url).toBeGreaterThan(0);
      if ('results' in body) expect(body.results.length, url).toBeGreaterThan(0);
    }
  });
});

describe('the answers docs/ shows', () => {
  const answers = blocksFor('answer');

  it('finds them', () => expect(answers.length).toBeGreaterThan(0));

  it.each(answers.map((b) => [at(b), b] as const))('%s is what its path answers', async (_, b) => {
    expect(b.args).toHaveLength(1);
    const res = await fetch(`${origin}${b.args[0]}`);
    expect(await res.json()).toEqual(JSON.parse(b.text));
  });
});

describe('the access log line docs/ shows', () => {
  it('has the shape of the lines aula serve writes', async () => {
    const [shown] = blocksFor('access-log');
    const [time, method, target] = shown.text.trim().split(' ');
    expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const answer = await fetch(`${origin}${target}`, { headers: { 'accept-encoding': 'identity' } });
    const bytes = (await answer.arrayBuffer()).byteLength;
    // logged once the answer has gone out
    await serve!.waitFor(new RegExp(` ${target.replace(/[?.*+()[\]\\^$|{}]/g, '\\$&')} `));
    const line = serve!.out.split('\n').find((l) => l.includes(` ${target} `))!;
    expect(line).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z ${method} ${target.replace(/[?.]/g, '\\$&')} 200 ${bytes} \\d+(\\.\\d)?ms$`));
    // the shown line is one such line
    expect(shown.text.trim()).toMatch(/^\S+Z GET \S+ 200 \d+ \d+(\.\d)?ms$/);
  });
});
