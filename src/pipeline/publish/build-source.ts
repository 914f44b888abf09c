// The files the build's dataset is read from: those still in memory, and the large data files
// back from the staging folder they were just written to (the event parts read by offset, as the
// server reads them), so the rows are not held in the heap while the directory is indexed and
// the pages are answered. Trusted: they are the very bytes this build hashed for the manifest
// (or files of the previous dist proven to be those bytes, dist-ledger.ts).
import { eventPartFile } from '../../store/format/dist-paths.ts';
import { directorySource, memorySource, type DistSource } from '../../store/read/dist-source.ts';

export function buildSource(files: ReadonlyMap<string, string | Uint8Array>, staging: string): DistSource {
  const memory = memorySource(files, staging);
  const disk = directorySource(staging);
  const from = (rel: string) => (files.has(rel) ? memory : disk);
  return {
    where: memory.where,
    trusted: true,
    require: (rel) => from(rel).require(rel),
    text: (rel) => from(rel).text(rel),
    bytes: (rel) => from(rel).bytes(rel),
    open: files.has(eventPartFile(0)) ? undefined : disk.open,
  };
}
