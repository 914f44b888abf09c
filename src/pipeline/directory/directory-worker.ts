// The directory job's thread module (directory-job.ts), each thread answering once. `make`: makes
// the files and answers where they are. They go to the job's scratch file when it has one (a
// descriptor: threads share them), each index's as soon as it is made: they wait there, not in a
// heap, until the build asks for them. What cannot be written there is answered as it is.
// `compress`: the large files' twins, made once the build's main thread works alone, on a thread
// of their own (the first one's heap, as large as the directory, is gone by then): each file is
// read from the scratch file and its twins written there after everything else; their layout
// entries are the answer.
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
