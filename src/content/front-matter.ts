// Splits a Markdown event file into its YAML front matter and its Markdown body.

export type FrontMatter =
  | {
      ok: true;
      /** the YAML between the `---` lines */
      yaml: string;
      /** lines of the file before `yaml` (the opening `---`), to report real line numbers */
      lineOffset: number;
      body: string;
    }
  | { ok: false; message: string };

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*\r?$/m;

export function splitFrontMatter(text: string): FrontMatter {
  const open = OPENING.exec(text);
  if (!open) return { ok: false, message: "expected front matter: a first line '---', the YAML, then a line '---'" };
  const start = open[0].length;
  const rest = text.slice(start);
  const close = CLOSING.exec(rest);
  if (!close) return { ok: false, message: "the front matter opened on line 1 has no closing '---' line" };
  const afterClose = start + close.index + close[0].length;
  return {
    ok: true,
    yaml: rest.slice(0, close.index),
    lineOffset: 1,
    // Skip the closing line's own line break; the body starts on the next line.
    body: text.slice(text[afterClose] === '\n' ? afterClose + 1 : afterClose),
  };
}
