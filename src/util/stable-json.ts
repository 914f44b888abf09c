// JSON of a value that says the same for the same content however it was built: object keys in
// order, maps as their entries sorted by key, sets sorted, bigints as strings. For keys made of
// whole objects (a render context), where insertion order is no part of the meaning.

export function stableJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

const byKey = (a: [unknown, unknown], b: [unknown, unknown]) => {
  const x = JSON.stringify(canonical(a[0]));
  const y = JSON.stringify(canonical(b[0]));
  return x < y ? -1 : x > y ? 1 : 0;
};

function canonical(value: unknown): unknown {
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Map) return { map: [...value].sort(byKey).map(([k, v]) => [canonical(k), canonical(v)]) };
  if (value instanceof Set) return { set: [...value].map(canonical).sort() };
  if (ArrayBuffer.isView(value)) return { bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex') };
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(record).sort().map((k) => [k, canonical(record[k])]));
}

/** `entries` as a record with its keys in order, so that a file made of it (the manifest, the ledger) has the same bytes for the same content. */
export function sortedRecord<T>(entries: Iterable<[string, T]>): Record<string, T> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
