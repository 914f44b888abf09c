// site.yaml: the site-wide settings.
import type { Site } from '../model/types.ts';
import { isValidZone } from '../time/zone.ts';
import { basePathProblem } from '../util/base-path.ts';
import type { Fields } from './fields.ts';
import { describeValue } from './problems.ts';
import { SITE } from './shapes.ts';

export { DEFAULT_SITE } from './shapes.ts';

const S = SITE.fields;

export function readSite(f: Fields): Site {
  const site: Site = {
    base_url: baseUrl(f),
    timezone: f.read(S.timezone),
    page_size: f.read(S.page_size),
    max_page_size: f.read(S.max_page_size),
    title: f.read(S.title),
  };
  if (site.title !== null && site.title.trim() === '') f.problem('title', 'expected a name, got an empty string (leave title out for the default)');
  if (!isValidZone(site.timezone)) {
    f.problem('timezone', `unknown time zone ${describeValue(site.timezone)} (expected an IANA name such as Europe/Vienna)`);
  }
  // (a refused value reads as its default, which the user never wrote: no comparison then)
  if (!f.refused('page_size') && !f.refused('max_page_size') && site.page_size > site.max_page_size) {
    f.problem('page_size', `page_size ${site.page_size} is larger than max_page_size ${site.max_page_size}`);
  }
  f.rejectUnknown();
  return site;
}

function baseUrl(f: Fields): string {
  const text = f.read(S.base_url);
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // reported below
  }
  if (url && (url.username !== '' || url.password !== '')) {
    // (first, and not quoted: the user name and password would be in the message)
    f.problem('base_url', 'expected no user name or password in the URL: it is written into every link of the dist');
  } else if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    f.problem('base_url', `expected an absolute http:// or https:// URL, got ${describeValue(text)}`);
  } else if (url.search !== '' || url.hash !== '' || text.includes('?') || text.includes('#')) {
    f.problem('base_url', `expected an origin and optional path without query or fragment, got ${describeValue(text)}`);
  } else {
    const why = basePathProblem(text, url);
    if (why !== null) f.problem('base_url', `expected a URL links can carry, got ${describeValue(text)}: ${why}`);
  }
  return text.replace(/\/+$/, '');
}
