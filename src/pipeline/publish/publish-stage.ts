// The last stage: the served files answered (answer-stage.ts); media copies, routing rules, the
// manifest and changes.json written; unchanged files carried over; the dist swapped in; the ledger
// and event state recorded.
import { DEFAULT_UPSTREAM } from '../../defaults.ts';
import type { Media } from '../../model/types.ts';
import type { Manifest } from '../../store/format/manifest.ts';
import { isPublicFile } from '../../store/format/public-files.ts';
import { carryOver, LinkOrCopy, listFiles } from '../ledger/carry-over.ts';
import { aulaManifest } from '../out-folder/out-folder.ts';
import { swapIn } from '../out-folder/swap.ts';
import type { Rendered } from '../render/state-render.ts';
import { answerServed, type AnswerInput } from './answer-stage.ts';
import type { BuildOptions, Clock } from '../run.ts';
import { copyMediaFiles } from '../write/media-copies.ts';
import { routingFiles } from '../../deploy/routing-files.ts';
import type { StagedDist } from '../write/staged-dist.ts';
import { writeFiles } from '../write/write-files.ts';
import { changesBetween, CHANGES_FILE, previousPublicFiles, sortedRecord } from '../ledger/changes.ts';
import { stagedIdentities, writeLedger } from '../ledger/dist-ledger.ts';

interface PublishInput extends AnswerInput {
  out: string;
  /** the previous build's manifest, when the load read it */
  previous: Manifest | null;
  media: ReadonlyMap<number, Media>;
  /** records the event state, bound to the manifest: before the swap, so a stopped build leaves no state describing no dist */
  record?: (manifestJson: string) => void;
}

/** Resolves with the documents answered (not linked). */
export async function publishStage(options: BuildOptions, clock: Clock, input: PublishInput, rendered: Rendered, dist: StagedDist): Promise<number> {
  const documents = await answerServed(options, clock, input, rendered, dist);
  // made on its thread while the pages were answered: written, and listed in the manifest
  if (rendered.autocompleteData) await (await import('../render/autocomplete-data.ts')).addAutocompleteData(rendered.manifest, rendered.autocompleteData, dist);
  const { out } = input;
  const { manifest } = rendered;
  const { served } = dist;
  // the routing rules list the files made so far; the media copies have rules of their own
  const publicFiles = [...served.keys()].filter(isPublicFile).sort();
  copyMediaFiles(rendered.mediaFiles, input.media, dist.staging, served);
  await clock.nextPhase('copy media', 'manifest');
  writeFiles(dist.staging, routingFiles(manifest, options.upstream ?? DEFAULT_UPSTREAM, { files: publicFiles, media: rendered.mediaFiles }));
  if (options.edge) writeFiles(dist.staging, await (await import('../../deploy/edge-bundle.ts')).edgeFiles());
  manifest.public_files = sortedRecord(served);
  const changes = changesBetween(previousPublicFiles(input.previous ?? aulaManifest(out)), manifest.public_files);
  const manifestJson = `${JSON.stringify(manifest, null, 2)}\n`;
  writeFiles(dist.staging, new Map([
    ['manifest.json', manifestJson],
    [CHANGES_FILE, `${JSON.stringify(changes, null, 2)}\n`],
  ]));
  await clock.nextPhase('manifest', 'carry over');
  const { ledger } = dist;
  // listed once for the carry-over, the identities and .aula-files
  const files = listFiles(dist.staging);
  const links = ledger?.links ?? new LinkOrCopy();
  carryOver(out, dist.staging, ledger ? (rel) => ledger.linked.has(rel) || ledger.differs(rel, dist.written) : undefined, files, links);
  await clock.nextPhase('carry over', 'swap');
  if (dist.ledgerFile !== null) input.record?.(manifestJson);
  // taken before anybody else can reach them: what changes after the swap is not proven
  const staged = dist.ledgerFile === null ? null : stagedIdentities(dist.staging, dist.written, dist.ledger?.linked, new Set(files));
  swapIn(dist.staging, out, options.onWarning, files, links);
  // once every file is in place: the identities are final
  if (dist.ledgerFile !== null) writeLedger(dist.ledgerFile, out, dist.written, manifest.precompressed, staged!);
  clock.phase('swap');
  return documents;
}
