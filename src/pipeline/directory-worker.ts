// Entry point of the directory worker thread (directory-job.ts starts it with the objects and the
// request as its workerData): makes the files and posts them back once.
// The files go to the job's scratch folder when it has one: they wait there, not in the build's
// heap, until the build asks for them (directory-job.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { DirectoryObject } from '../model/types.ts';
import { MADE_FILE, type WorkerAnswer } from './directory-job.ts';
import { makeDirectoryFiles, type DirectoryRequest } from './directory-make.ts';

const { objects, request, scratch } = workerData as { objects: DirectoryObject[]; request: DirectoryRequest; scratch: string | null };
// an error rejects the job through the worker's 'error' event
const made = await makeDirectoryFiles(objects, request);
let answer: WorkerAnswer = { made };
if (scratch !== null) {
  const file = join(scratch, MADE_FILE);
  try {
    writeFileSync(file, serialize(made));
    answer = { file };
  } catch {
    // a full or unwritable temp folder: the files go by message, as they are
  }
}
parentPort!.postMessage(answer);
