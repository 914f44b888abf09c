import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.ts';

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
