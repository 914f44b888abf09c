// The directory worker thread's module (directory-job.ts posts it the objects and the request):
// makes the files and answers where they are, once.
// The files go to the job's scratch file when it has one (a descriptor: threads share them), each
// index's as soon as it is made: they wait there, not in a heap, until the build asks for them
// (directory-job.ts). What cannot be written there is answered as it is.
import type { DirectoryObject } from '../../model/types.ts';
import type { WorkerAnswer } from './directory-job.ts';
import { makeDirectoryFiles, type DirectoryRequest, type DirectorySource } from './directory-make.ts';
import { MadeWriter } from './directory-made-file.ts';

export async function answer(message: { objects: readonly DirectoryObject[] | null; request: DirectoryRequest; scratch: number | null }): Promise<WorkerAnswer> {
  // the objects are handed over, not kept here: makeDirectoryFiles lets go of them once indexed
  const source: DirectorySource = { objects: message.objects };
  message.objects = null;
  const writer = new MadeWriter(message.scratch);
  // The large files are compressed later, on a thread of their own (directory-compress-worker.ts),
  // when the build's main thread works alone: while the events are parsed both cores are busy.
  // Only when they wait in the scratch file: held, they would be answered whole first.
  const deferred: string[] | undefined = writer.writing ? [] : undefined;
  // an error rejects the job through the thread's 'error' event
  await makeDirectoryFiles(source, message.request, writer.put, deferred);
  return { layout: writer.layout, rest: writer.rest, deferred: deferred ?? [], end: writer.end };
}

export const once = true; // the thread ends after its answer, its heap with it (util/start-thread.ts)
