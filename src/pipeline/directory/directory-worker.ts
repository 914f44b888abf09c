// The directory job's thread module (directory-job.ts), each thread answering once. `make`: makes
// the files into the job's scratch file (what cannot be written there is answered as it is).
// `compress`: the large files' twins, on a thread of their own once the first one's heap is gone:
// each read from the scratch file, its twins written there after everything else.
import type { DirectoryObject } from '../../model/types.ts';
import { compressTwins, LARGE_FILE_LEVELS } from '../../deploy/precompress.ts';
import type { DirectoryRequest, DirectorySource } from './directory-make.ts';
import { appendTwins, fileContent, MadeWriter, type DirectoryMade, type MadeLayout } from './directory-made-file.ts';

/**
 * What `make` answers: where what it made is in the scratch file (directory-made-file.ts), what it
 * could not write there, the large files it left to `compress` there, and where the file's bytes end.
 */
export type WorkerAnswer = { layout: MadeLayout; rest: DirectoryMade; deferred: string[]; end: number };

export type DirectoryMessage =
  | { make: { objects: readonly DirectoryObject[] | null; request: DirectoryRequest; scratch: number | null } }
  | { compress: { fd: number; files: MadeLayout['files']; at: number } };

export async function answer(message: DirectoryMessage): Promise<WorkerAnswer | MadeLayout['twins']> {
  if ('compress' in message) return compress(message.compress);
  const { make } = message;
  // loaded here, not above: a thread that compresses needs none of the indexing code
  const { makeDirectoryFiles } = await import('./directory-make.ts');
  // the objects are handed over, not kept here: makeDirectoryFiles lets go of them once indexed
  const source: DirectorySource = { objects: make.objects };
  make.objects = null;
  const writer = new MadeWriter(make.scratch);
  // The large files are compressed later (`compress`): while the events are parsed both cores are
  // busy. Only when they wait in the scratch file: held, they would be answered whole first.
  const deferred: string[] | undefined = writer.writing ? [] : undefined;
  await makeDirectoryFiles(source, make.request, writer.put, deferred);
  return { layout: writer.layout, rest: writer.rest, deferred: deferred ?? [], end: writer.end };
}

function compress({ fd, files, at }: { fd: number; files: MadeLayout['files']; at: number }): MadeLayout['twins'] {
  const twins: MadeLayout['twins'] = [];
  let end = at;
  for (const file of files) {
    const appended = appendTwins(fd, end, { [file.name]: compressTwins(fileContent(fd, file), LARGE_FILE_LEVELS) });
    twins.push(...appended.entries);
    end = appended.end;
  }
  return twins;
}
