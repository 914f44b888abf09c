// The build's dataset source: files still in memory, and the large ones read back from the staging
// folder (event parts by offset, as the server reads them), so the rows are not held in the heap.
// Trusted: they are the bytes this build hashed (or the ledger proved).
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
