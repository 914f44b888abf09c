// dist/.aula-files: every file a build put in its dist, so that the next build can tell them from
// files somebody else put there (a CNAME, a .git of a gh-pages worktree, a robots.txt), which it
// must keep (pipeline/out-folder/user-files.ts). The manifest lists the public files only, not their .gz/.br
// twins, the data files or the host configs.
//
// File: JSON, {"aula_files": 1, "files": [path, …]}: paths relative to dist/ with forward slashes,
// sorted. JSON rather than lines: a media copy keeps its source's name, which may hold a newline.

/** Its name in dist/ (it lists itself). */
export const MADE_FILES = '.aula-files';

const FORMAT = 1;

/** The file's text for `files` (any order). */
export function madeFilesText(files: readonly string[]): string {
  return `${JSON.stringify({ aula_files: FORMAT, files: [...files].sort() })}\n`;
}

/** The paths a `.aula-files` text lists, or null when it is not one (damaged, another format). */
export function parseMadeFiles(text: string): string[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const v = value as { aula_files?: unknown; files?: unknown };
  if (v === null || typeof v !== 'object' || v.aula_files !== FORMAT || !Array.isArray(v.files)) return null;
  return v.files.every((f): f is string => typeof f === 'string') ? v.files : null;
}
