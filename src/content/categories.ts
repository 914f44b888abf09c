// categories.yaml: `{id, title}` plus any keys of the category's own, kept for ?expand=categories.
import type { Category } from '../model/types.ts';
import type { Fields } from './fields.ts';
import { idOrNaN, indexById } from './ids.ts';
import type { FileIssue } from './problems.ts';
import type { Sourced } from './records.ts';
import { CATEGORY } from './shapes.ts';

const C = CATEGORY.fields;

export function readCategory(f: Fields): Category {
  const category: Category = { id: idOrNaN(f.read(C.id)), title: f.read(C.title) ?? '' };
  // The shape is open: every other key is the category's own; `extra` alone is ignored. Defined,
  // not assigned: a key named `__proto__` is then a key like any other, not the prototype.
  for (const [key, value] of f.rest()) Object.defineProperty(category, key, { value, enumerable: true, writable: true, configurable: true });
  return category;
}

/** The categories by id (a repeated id is an issue) and as the model lists them (by id): for a whole load and a load over the state alike. */
export function indexCategories(records: readonly Sourced<Category>[], issues: FileIssue[]): { byId: Map<number, Sourced<Category>>; list: Category[] } {
  const byId = indexById(records, (c) => c.id, 'category id', 'id', issues);
  return { byId, list: Array.from(byId.values(), (r) => r.value).sort((a, b) => a.id - b.id) };
}
