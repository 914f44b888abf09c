// The public files of the build `aula dev` serves from memory: dist/'s are the previous build's
// until the dist writer has caught up, and every route must answer the same build as the API.
// So each is made from the served build where that is cheap, as the build makes it:
// - events.ics and openapi.json are the API core's own answers (the build's DOCUMENTS), made on
//   their first request; the schemas are the build's constant ones;
// - autocomplete/'s index and module (and their hashed twins) from the index the memory build
//   holds, and MiniSearch's options module (the same in every build); the rest of autocomplete/
//   (minisearch.json, every compressed twin) is made from the directory alone, so dist/'s are
//   this build's when the directory is the one written there, and answered 503 (Retry-After)
//   until the writer has written it otherwise;
// - the media files straight from the content folder, by the served model's media list.
import { lstatSync, realpathSync } from 'node:fs';
import { answerDocument } from '../api/documents.ts';
import { contentSchemaFiles } from '../docs/content-schemas.ts';
import type { Media } from '../model/types.ts';
import type { Dataset } from '../query/dataset.ts';
import { distPublicSource, type PublicSource } from '../server/static-files.ts';
import { AUTOCOMPLETE_DIR, AUTOCOMPLETE_INDEX_FILE, AUTOCOMPLETE_MODULE_FILE } from '../store/format/dist-paths.ts';
import { MEDIA_FILES_INDEX, mediaFilesText } from '../store/format/public-files.ts';
import { hashedAutocompleteFiles } from '../store/write/hashed-files.ts';
import { MINISEARCH_OPTIONS_FILE } from '../store/write/minisearch/build.ts';
import { mediaFilesOf } from '../pipeline/write/media-copies.ts';

export interface ServedBuild {
  dataset: Dataset;
  media: ReadonlyMap<number, Media>;
  /** dist/autocomplete/index.json of this build */
  index: string;
  /** dist/autocomplete/autocomplete.js (null while it is being bundled) */
  module: () => string | null;
  /** dist/autocomplete/minisearch-options.js (null while it is being bundled) */
  optionsModule: () => string | null;
  /** whether dist/ holds this build's directory (its directory-only files are then this build's) */
  directoryWritten: () => boolean;
  out: string;
}

const COMPRESSED = /\.(?:br|gz)$/;

/**
 * The content folder's file of `m` while it is the file the build checked: a regular file at its
 * real path, not a link, of the size the API says (an edit still being built is not served in
 * place of the file it says; the build that follows serves it).
 */
function checkedSource(m: Media): string | null {
  const source = m.source;
  if (source === undefined) return null;
  try {
    const info = lstatSync(source);
    return info.isFile() && info.size === m.size && realpathSync(source) === source ? source : null;
  } catch {
    return null;
  }
}

export function memoryPublicFiles(build: ServedBuild): PublicSource {
  const mediaFiles = mediaFilesOf(build.media);
  const mediaByFile = new Map(mediaFiles.map((f) => [f.file, build.media.get(f.id)!]));
  let hashed: Map<string, string> | null = null;
  const written = distPublicSource(build.out);

  const make = (rel: string): Buffer | null | 'pending' => {
    const document = answerDocument(build.dataset, rel);
    if (document !== undefined) return document;
    if (rel.startsWith('schemas/')) {
      const text = contentSchemaFiles()[rel.slice('schemas/'.length)];
      return text === undefined ? null : Buffer.from(text);
    }
    if (rel === MEDIA_FILES_INDEX) return Buffer.from(mediaFilesText(mediaFiles));
    if (!rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) return null;
    const name = rel.slice(AUTOCOMPLETE_DIR.length + 1);
    if (name === AUTOCOMPLETE_INDEX_FILE) return Buffer.from(build.index);
    const options = name === MINISEARCH_OPTIONS_FILE ? build.optionsModule() : null;
    if (options !== null) return Buffer.from(options);
    const module = build.module();
    if (name === AUTOCOMPLETE_MODULE_FILE) return module === null ? 'pending' : Buffer.from(module);
    if (module === null) return 'pending';
    hashed ??= hashedAutocompleteFiles(build.index, module).files;
    const twin = hashed.get(name);
    if (twin !== undefined) return Buffer.from(twin);
    // made of the directory alone: dist/'s when its directory is this one
    if (build.directoryWritten()) return written.read(rel);
    return COMPRESSED.test(name) ? null : 'pending';
  };

  return {
    read(rel) {
      // the compressed twins of what is made here are not made: answered uncompressed
      if (COMPRESSED.test(rel) && !rel.startsWith(`${AUTOCOMPLETE_DIR}/`)) return null;
      // (each answer is kept by the StaticFiles this source is handed to, one per served build)
      return make(rel);
    },
    mediaPath(rel) {
      const m = mediaByFile.get(rel);
      return m ? checkedSource(m) : null;
    },
  };
}
