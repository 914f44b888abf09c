// categories.yaml: `{id, title}` plus any keys of the category's own, kept for ?expand=categories.
import type { Category } from '../model/types.ts';
import type { Fields } from './fields.ts';
import { idOrNaN } from './ids.ts';

export function readCategory(f: Fields): Category {
  const category: Category = { id: idOrNaN(f.int('id')), title: f.string('title') ?? '' };
  // Every other key is the category's own (no unknown keys here); `extra` alone is ignored.
  for (const [key, value] of f.rest()) category[key] = value;
  return category;
}
