import { describe, expect, it } from 'vitest';
import { basePathProblem, canonicalBaseUrl, normalizeBaseUrl } from './base-path.ts';
import { load } from '../content/test-folder.ts';

const problem = (text: string) => basePathProblem(text, new URL(text));

describe('basePathProblem: what the URL parser lets through and links would carry as written', () => {
  it('refuses port 0, empty, dot and backslash segments, %-escaped too', () => {
    expect(problem('http://a.example:0/api')).toBe('port 0 cannot be reached');
    expect(problem('http://a.example//x')).toBe('an empty path segment (//)');
    expect(problem('http://a.example/api//v')).toBe('an empty path segment (//)');
    expect(problem('http://a.example/../x')).toBe('a .. path segment');
    expect(problem('http://a.example/x/./y')).toBe('a . path segment');
    expect(problem('http://a.example/x/%2E%2e')).toBe('a .. path segment');
    expect(problem('http://a.example\\x')).toBe('a backslash in the path');
  });

  it('refuses a %-escape as written, where links and host rules would name different paths, and spaces around the URL', () => {
    for (const bad of ['http://a.example/a%2F..', 'http://a.example/%41', 'http://a.example/a%2e', 'http://a.example/caf%C3%A9', 'http://a.example/café']) {
      expect(problem(bad), bad).toBe('its path may hold only letters, digits and . _ ~ / - (the host rules the build writes cannot hold others)');
    }
    expect(problem(' https://a.example ')).toBe('spaces around the URL');
    expect(() => normalizeBaseUrl('http://127.0.0.1:1/a%2F..')).toThrow(/^base URL http:\/\/127\.0\.0\.1:1\/a%2F\.\.: its path may hold only/);
  });

  it('passes what links carry as they are, trailing slashes and dots inside names included', () => {
    for (const ok of ['http://a.example', 'https://a.example/', 'https://a.example/api/', 'https://a.example:8443/a.b/..c/v1.2//', 'http://127.0.0.1:8000']) {
      expect(problem(ok), ok).toBeNull();
    }
  });
});

describe('canonicalBaseUrl, and normalizeBaseUrl the build uses', () => {
  it('writes scheme and host as the parser does, drops the default port and trailing slashes', () => {
    expect(canonicalBaseUrl(new URL('HTTP://A.EXAMPLE/Api/'))).toBe('http://a.example/Api');
    expect(canonicalBaseUrl(new URL('http://müller.example'))).toBe('http://xn--mller-kva.example');
    expect(canonicalBaseUrl(new URL('https://a.example:443/x'))).toBe('https://a.example/x');
    expect(normalizeBaseUrl('HTTPS://Events.Example.org:8443/api//')).toBe('https://events.example.org:8443/api');
  });

  it('refuses what basePathProblem refuses, in one line naming the URL', () => {
    expect(() => normalizeBaseUrl('http://a.example/../x')).toThrow(/^base URL http:\/\/a\.example\/\.\.\/x: a \.\. path segment$/);
    expect(() => normalizeBaseUrl('ftp://a.example')).toThrow(/must be http or https/);
  });
});

describe('site.yaml says what basePathProblem says', () => {
  it('gives its reason for every URL it refuses, in one form', async () => {
    for (const url of ['http://x/a b', 'https://example.org/%7Bx%7D', 'https://example.org/a%zz', 'http://a.example//x', 'http://a.example/api/../x', 'http://a.example:0']) {
      const { lines: out } = await load({ 'site.yaml': `base_url: "${url}"\n` });
      expect(out).toEqual([`site.yaml:1:11 base_url: expected a URL links can carry, got ${JSON.stringify(url)}: ${problem(url)}`]);
    }
  });
});
