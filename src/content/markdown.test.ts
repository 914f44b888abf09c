import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkHref, markdownItHref, PLAIN_HTTP_URL, renderMarkdown } from './markdown.ts';

describe('renderMarkdown', () => {
  it('renders CommonMark and trims the result', () => {
    expect(renderMarkdown('\n\n# Title\n\nA *b* [c](https://example.org/x y "t") &amp; `d`\n\n- one\n- two\n\n')).toBe(
      '<h1>Title</h1>\n<p>A <em>b</em> [c](https://example.org/x y &quot;t&quot;) &amp; <code>d</code></p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>',
    );
  });

  it('passes HTML blocks through unchanged', () => {
    const html = '<div class="box" data-x=\'1\'>\n  <p>Raw <b>HTML</b> &nbsp;</p>\n</div>';
    expect(renderMarkdown(`Before\n\n${html}\n\nAfter`)).toBe(`<p>Before</p>\n${html}\n<p>After</p>`);
  });

  it('does not autolink bare URLs or use typographic quotes (CommonMark preset)', () => {
    expect(renderMarkdown('See https://example.org -- "quoted"')).toBe('<p>See https://example.org -- &quot;quoted&quot;</p>');
  });
});

describe('linkHref', () => {
  it('gives plain http(s) URLs back as they are, which is what markdown-it makes of them', () => {
    fc.assert(
      fc.property(fc.stringMatching(PLAIN_HTTP_URL), (url) => {
        fc.pre(url.length <= 200);
        expect(linkHref(url)).toBe(url);
        expect(markdownItHref(url)).toBe(url);
      }),
      { numRuns: 5_000 },
    );
  });

  it('encodes and refuses the others as markdown-it does', () => {
    for (const url of ['https://EXAMPLE.org/x', 'https://bücher.example/ä', 'https://x.y/a b', 'https://x.y/%zz', 'mailto:a@b.c', '/relative']) {
      expect(linkHref(url)).toBe(markdownItHref(url));
    }
    expect(linkHref('javascript:alert(1)')).toBeNull();
  });
});
