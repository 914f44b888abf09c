// Where each column file lives under dist/ (data/columns/), by kind and field: the one list the
// writer, the loader and a build over the previous one share.
import { BOOL_FIELDS, ORDERED_FIELDS, RELATION_FIELDS, TEXT_FIELDS, TIME_FIELDS, type BoolField, type OrderedField, type RelationField, type TextField, type TimeField } from './event-table.ts';

export const COLUMNS_DIR = 'data/columns';

export const columnFile = {
  text: (f: TextField) => `${COLUMNS_DIR}/${f}.text.bin`,
  iso: (f: TimeField) => `${COLUMNS_DIR}/${f}.iso.bin`,
  ordered: (f: OrderedField) => `${COLUMNS_DIR}/${f}.ordered.bin`,
  bool: (f: BoolField) => `${COLUMNS_DIR}/${f}.bool.bin`,
  relation: (f: RelationField) => `${COLUMNS_DIR}/${f}.relation.bin`,
};

/** Every column file, in a fixed order. */
export const COLUMN_FILES: readonly string[] = [
  ...TEXT_FIELDS.map(columnFile.text),
  ...TIME_FIELDS.map(columnFile.iso),
  ...ORDERED_FIELDS.map(columnFile.ordered),
  ...BOOL_FIELDS.map(columnFile.bool),
  ...RELATION_FIELDS.map(columnFile.relation),
];
