// categories.yaml: `{id, title}` plus any keys of the category's own, kept for ?expand=categories.
import type { Category } from '../model/types.ts';
import type { Fields } from './fields.ts';
import { idOrNaN } from './ids.ts';
import { CATEGORY } from './shapes.ts';

const C = CATEGORY.fields;

export function readCategory(f: Fields): Category {
  const category: Category = { id: idOrNaN(f.read(C.id)), title: f.read(C.title) ?? '' };
  // The shape is open: every other key is the category's own; `extra` alone is ignored. Defined,
  // not assigned: a key named `__proto__` is then a key like any other, not the prototype.
  for (const [key, value] of f.rest()) Object.defineProperty(category, key, { value, enumerable: true, writable: true, configurable: true });
  return category;
}
