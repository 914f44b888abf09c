// The module of the thread that compresses the directory's large files (directory-job.ts starts
// it once the build's main thread works alone): each is read from the job's scratch file, where the
// directory worker left it, and its twins are written there after everything else; their layout
// entries are the answer. A thread of its own, started then, rather than the directory worker
// waiting: that one's heap (as large as the directory, garbage by then) is gone.
import { compressTwins, LARGE_FILE_LEVELS } from '../../deploy/precompress.ts';
import { appendTwins, fileContent, type MadeLayout } from './directory-made-file.ts';

export function answer({ fd, files, at }: { fd: number; files: MadeLayout['files']; at: number }): MadeLayout['twins'] {
  const twins: MadeLayout['twins'] = [];
  let end = at;
  for (const file of files) {
    const appended = appendTwins(fd, end, { [file.name]: compressTwins(fileContent(fd, file), LARGE_FILE_LEVELS) });
    twins.push(...appended.entries);
    end = appended.end;
  }
  return twins;
}

export const once = true; // the thread ends after its answer, its heap with it (util/start-thread.ts)
