// Entry point of the directory worker thread (directory-job.ts starts it with the objects and the
// request as its workerData): makes the files and posts them back once.
// The files go to the job's scratch file when it has one (a descriptor: threads share them): they
// wait there, not in the build's heap, until the build asks for them (directory-job.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { DirectoryObject } from '../model/types.ts';
import type { WorkerAnswer } from './directory-job.ts';
import { makeDirectoryFiles, type DirectoryRequest } from './directory-make.ts';
import { writeMade } from './directory-made-file.ts';

const { objects, request, scratch } = workerData as { objects: DirectoryObject[]; request: DirectoryRequest; scratch: number | null };
// an error rejects the job through the worker's 'error' event
const made = await makeDirectoryFiles(objects, request);
let answer: WorkerAnswer = { made };
if (scratch !== null) {
  try {
    answer = { layout: writeMade(scratch, made) };
  } catch {
    // a full temp folder: the files go by message, as they are
  }
}
parentPort!.postMessage(answer);
