// `aula serve --workers N`: the primary checks the event rows once, on a thread of its own, while
// the workers load the rest; each worker then skips its own check when the primary checked the
// very files it opened (same job, same inodes), so N workers do not hash ~240 MB N times on a
// machine with fewer cores than that. A worker that gets no answer, or another answer, checks itself.
import { crc32Hex, parseManifest, sha256Hex } from '../store/format/manifest.ts';
import { directorySource } from '../store/read/dist-source.ts';
import { eventOffsets, rowsJob } from '../store/read/stored-data.ts';
import { verifiedSource } from '../store/read/verified-source.ts';
import { rowsVerifier, type RowsVerifierOptions, type Vouch } from './rows-verifier.ts';

/** Checks the rows of `dist` as a worker's load would; what the check vouches for, or the DistError. */
export async function checkRowsForWorkers(dist: string, options: Pick<RowsVerifierOptions, 'thread'> = {}): Promise<Vouch> {
  const source = directorySource(dist);
  const manifest = parseManifest(source.text('manifest.json'), source.where('manifest.json'));
  const checked = verifiedSource(source, manifest, sha256Hex, crc32Hex);
  const job = rowsJob(checked, manifest, eventOffsets(checked, manifest));
  const verifier = rowsVerifier(dist, options);
  verifier.verifyRows(job);
  await verifier.done();
  return verifier.vouch();
}

const ASK = 'rows?';
const ANSWER = 'rows';

/** In the primary: answers the workers' questions with the check's outcome once it is known (null: not checked). */
export function answerWorkers(checked: Promise<Vouch>): (worker: Asker, message: unknown) => void {
  checked.catch(() => {});
  return (worker, message) => {
    if ((message as { aula?: string } | null)?.aula !== ASK) return;
    // A worker can be gone by the time the check ends (the dist failed it): its closed channel
    // is passed to the callback, not thrown as an unhandled 'error' event that ends the primary.
    const answer = (vouch: Vouch | null) => worker.send({ aula: ANSWER, vouch }, () => {});
    checked.then(
      answer,
      // the workers check themselves and report the problem, as without a primary
      () => answer(null),
    );
  };
}

/** What the primary answers: a cluster worker's channel. */
export interface Asker {
  send(message: { aula: string; vouch: Vouch | null }, callback: (error: Error | null) => void): unknown;
}

/** In a worker: asks the primary; null when it has no answer or is gone. */
export function askPrimary(): Promise<Vouch | null> {
  return new Promise((resolve) => {
    const onMessage = (m: { aula?: string; vouch?: Vouch | null } | null) => {
      if (m?.aula !== ANSWER) return;
      done();
      resolve(m.vouch ?? null);
    };
    const onGone = () => {
      done();
      resolve(null);
    };
    const done = () => {
      process.off('message', onMessage);
      process.off('disconnect', onGone);
    };
    process.on('message', onMessage);
    process.once('disconnect', onGone);
    // a primary already gone is an error passed here, not an unhandled 'error' event
    if (!process.send) onGone();
    else process.send({ aula: ASK }, (error: Error | null) => error && onGone());
  });
}

