// Entry point of the directory worker thread (directory-job.ts starts it with the objects and the
// request as its workerData): makes the files and posts back where they are, once.
// The files go to the job's scratch file when it has one (a descriptor: threads share them), each
// index's as soon as it is made: they wait there, not in a heap, until the build asks for them
// (directory-job.ts). What cannot be written there is posted as it is.
import { parentPort, workerData } from 'node:worker_threads';
import type { DirectoryObject } from '../../model/types.ts';
import type { WorkerAnswer } from './directory-job.ts';
import { makeDirectoryFiles, type DirectoryRequest, type DirectorySource } from './directory-make.ts';
import { MadeWriter } from './directory-made-file.ts';

const data = workerData as { objects: DirectoryObject[] | null; request: DirectoryRequest; scratch: number | null };
// the objects are handed over, not kept here: makeDirectoryFiles lets go of them once indexed
const source: DirectorySource = { objects: data.objects };
data.objects = null;
const writer = new MadeWriter(data.scratch);
// The large files are compressed later, on a thread of their own (directory-compress-worker.ts),
// when the build's main thread works alone: while the events are parsed both cores are busy.
// Only when they wait in the scratch file: held, they would be posted whole first.
const deferred: string[] | undefined = writer.writing ? [] : undefined;
// an error rejects the job through the worker's 'error' event
await makeDirectoryFiles(source, data.request, writer.put, deferred);
const answer: WorkerAnswer = { layout: writer.layout, rest: writer.rest, deferred: writer.writing ? (deferred ?? []) : [], end: writer.end };
parentPort!.postMessage(answer);
