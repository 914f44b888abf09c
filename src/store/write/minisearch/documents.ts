// Directory objects as the documents of the MiniSearch index.
import { listingOrder } from '../index-builder.ts';
import { directoryKind, type DirectoryObject } from '../../../model/types.ts';
import type { MiniSearchDocument } from './options.ts';

/**
 * In listing order, so the serialized index does not depend on the order of the content files.
 * `ordered`: the objects in that order, when the caller has them already.
 */
export function miniSearchDocuments(objects: readonly DirectoryObject[], ordered: readonly DirectoryObject[] = listingOrder(objects)): MiniSearchDocument[] {
  return ordered.map(miniSearchDocument);
}

/** One object as MiniSearch's document: the build makes each where it needs it, so the directory's documents are never all held. */
export function miniSearchDocument(o: DirectoryObject): MiniSearchDocument {
  const ctype = o.model.toLowerCase();
  // content-format: "level_id and room_id are the room's values, null for everything else"
  const room = directoryKind(o.model) === 'room';
  return {
    key: `${ctype}:${o.id}`,
    id: o.id,
    ctype,
    // as the API answers it (suggestion.ts), so a result carries the very suggestion object
    presentation: `${o.presentation}\n`,
    keywords: o.keywords,
    level_id: room ? o.level_id : null,
    room_id: room ? o.room_id : null,
  };
}
