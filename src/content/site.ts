// site.yaml: the site-wide settings.
import type { Site } from '../model/types.ts';
import { isValidZone } from '../time/zone.ts';
import type { Fields } from './fields.ts';
import { describeValue } from './problems.ts';

export const DEFAULT_SITE: Readonly<Site> = {
  base_url: 'http://localhost:8000',
  timezone: 'Europe/Vienna',
  page_size: 20,
  max_page_size: 1000,
};

export function readSite(f: Fields): Site {
  const site: Site = {
    base_url: baseUrl(f),
    timezone: f.string('timezone', DEFAULT_SITE.timezone),
    page_size: positive(f, 'page_size', DEFAULT_SITE.page_size),
    max_page_size: positive(f, 'max_page_size', DEFAULT_SITE.max_page_size),
  };
  if (!isValidZone(site.timezone)) {
    f.problem('timezone', `unknown time zone ${describeValue(site.timezone)} (expected an IANA name such as Europe/Vienna)`);
  }
  if (site.page_size > site.max_page_size) {
    f.problem('page_size', `page_size ${site.page_size} is larger than max_page_size ${site.max_page_size}`);
  }
  f.rejectUnknown();
  return site;
}

function baseUrl(f: Fields): string {
  const text = f.string('base_url', DEFAULT_SITE.base_url);
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    f.problem('base_url', `expected an absolute http:// or https:// URL, got ${describeValue(text)}`);
  } else if (url.search !== '' || url.hash !== '' || text.includes('?') || text.includes('#')) {
    f.problem('base_url', `expected an origin and optional path without query or fragment, got ${describeValue(text)}`);
  }
  return text.replace(/\/+$/, '');
}

function positive(f: Fields, key: string, fallback: number): number {
  const n = f.int(key, fallback);
  if (n >= 1) return n;
  f.problem(key, `expected a positive integer, got ${n}`);
  return fallback;
}
