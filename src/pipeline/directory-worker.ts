// Entry point of the directory worker thread (directory-job.ts starts it with the objects and the
// request as its workerData): makes the files and posts them back once.
import { parentPort, workerData } from 'node:worker_threads';
import type { DirectoryObject } from '../model/types.ts';
import { makeDirectoryFiles, type DirectoryRequest } from './directory-make.ts';

const { objects, request } = workerData as { objects: DirectoryObject[]; request: DirectoryRequest };
// an error rejects the job through the worker's 'error' event
parentPort!.postMessage(await makeDirectoryFiles(objects, request));
