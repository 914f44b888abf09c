// The `m` parameter and the model ↔ ctype mapping. Bundled for the browser, so no node: imports.
import { DIRECTORY_MODELS, type DirectoryModel } from './types.ts';

export type ParsedModels = { ok: true; models: DirectoryModel[] | null } | { ok: false; message: string };

const BY_LOWER = new Map<string, DirectoryModel>(DIRECTORY_MODELS.map((m) => [m.toLowerCase(), m]));

/**
 * `m` is a comma-separated list of model names, matched case-insensitively; blank items are
 * dropped. No items at all (missing, empty, only commas/blanks) means no restriction (null).
 */
export function parseModels(m: string | undefined): ParsedModels {
  if (m === undefined) return { ok: true, models: null };
  const models: DirectoryModel[] = [];
  for (const part of m.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const model = BY_LOWER.get(item.toLowerCase());
    if (model === undefined) {
      return {
        ok: false,
        message: `Select a valid choice. "${item}" is not one of ${DIRECTORY_MODELS.join(', ')}.`,
      };
    }
    if (!models.includes(model)) models.push(model);
  }
  return { ok: true, models: models.length === 0 ? null : models };
}

/** Index of a model in DIRECTORY_MODELS; the serialized index stores models this way. */
export function modelIndex(model: DirectoryModel): number {
  return DIRECTORY_MODELS.indexOf(model);
}

/** Bit mask over model indexes; null, an empty list or only unknown names restrict nothing. */
export function modelMask(models: readonly DirectoryModel[] | null): number {
  const all = (1 << DIRECTORY_MODELS.length) - 1;
  if (models === null) return all;
  let mask = 0;
  for (const m of models) {
    const i = DIRECTORY_MODELS.indexOf(m);
    if (i >= 0) mask |= 1 << i;
  }
  return mask === 0 ? all : mask;
}

export const CTYPES: readonly string[] = DIRECTORY_MODELS.map((m) => m.toLowerCase());
