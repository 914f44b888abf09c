// The broad prefixes' codes: each object's best code among the terms starting with the prefix,
// as the postings say, and a query checked with them answers as one scanning the postings does,
// for less work.
import { describe, expect, it } from 'vitest';
import { codeStride, decodeIndex, NO_CODE } from '../../store/format/autocomplete-index.ts';
import { readAutocompleteFile } from '../../store/read/autocomplete-file.ts';
import { autocompleteFile } from '../../store/write/autocomplete-file.ts';
import { buildIndexJson } from '../../store/write/index-builder.ts';
import { metered, WorkMeter } from '../work-budget.ts';
import { prefixCodes } from './prefix-codes.ts';
import { prefixTops } from './prefix-tops.ts';
import { autocompleteOf, createAutocomplete } from './searcher.ts';
import { syntheticDirectory } from './test-fixtures.ts';

describe('prefix codes', () => {
  const objects = syntheticDirectory(1202, 5);
  const json = buildIndexJson(objects);
  const index = decodeIndex(json);
  const codes = prefixCodes(index, 100);

  it('hold, per prefix and object, the best code of its terms starting with the prefix', () => {
    expect(codes.keys.length).toBeGreaterThan(3);
    const stride = codeStride(index.size);
    for (let k = 0; k < codes.keys.length; k++) {
      const key = codes.keys.at(k);
      if (k > 0) expect(codes.keys.at(k - 1) < key).toBe(true);
      let postings = 0;
      for (let d = 0; d < index.size; d++) {
        let expected = NO_CODE;
        for (let f = index.fwdStart[d]; f < index.fwdStart[d + 1]; f++) {
          const term = index.terms.at(index.forward[f] >> 1);
          if (!term.startsWith(key)) continue;
          postings++;
          const code = (term === key ? 0 : 2) + (index.forward[f] & 1);
          if (code < expected) expected = code;
        }
        expect((codes.codes[k * stride + (d >> 1)] >> ((d & 1) << 2)) & 15, `${key} ${d}`).toBe(expected);
      }
      expect(postings).toBeGreaterThanOrEqual(100);
    }
  });

  it('answer a rare word and a broad prefix as the postings do, for less work', () => {
    const server = autocompleteOf(readAutocompleteFile(autocompleteFile(index, prefixTops(index, 20), codes)));
    const without = autocompleteOf(readAutocompleteFile(autocompleteFile(index, prefixTops(index, 20), { keys: { length: 0, at: () => '' }, codes: new Uint8Array(0) })));
    const browser = createAutocomplete(json);
    const broad = Array.from({ length: codes.keys.length }, (_, k) => codes.keys.at(k));
    const rare = objects.map((o) => o.presentation.split(/[\s,.()-]+/).find((w) => w.length >= 6)).filter((w): w is string => w !== undefined).slice(0, 40);
    let cheaper = 0;
    for (const word of rare) {
      for (const prefix of broad.slice(0, 8)) {
        const q = `${word} ${prefix}`;
        const used = (ac: typeof server) => {
          const meter = new WorkMeter(Number.MAX_SAFE_INTEGER);
          const page = metered(meter, () => ac.search(q, null).page(0, 20));
          return { page, units: meter.used };
        };
        const a = used(server);
        const b = used(without);
        expect(a.page).toEqual(b.page);
        expect(a.page).toEqual(browser.search(q, null).page(0, 20));
        if (a.units < b.units) cheaper++;
        else expect(a.units).toBe(b.units);
      }
    }
    expect(cheaper).toBeGreaterThan(0);
  });

  it('answer broad prefixes together, and with a word that has typo matches, as the postings do, on every page', () => {
    // the rarest word's candidates come from its prefix's objects (ascending), and further words
    // are looked up or merged with them; the browser's index has no codes and scans the postings
    const server = autocompleteOf(readAutocompleteFile(autocompleteFile(index, prefixTops(index, 20), codes)));
    const browser = createAutocomplete(json);
    const broad = Array.from({ length: codes.keys.length }, (_, k) => codes.keys.at(k));
    const typo = objects.map((o) => o.presentation.split(/[\s,.()-]+/).find((w) => w.length >= 8)).filter((w): w is string => w !== undefined);
    const queries = [...broad.flatMap((a, i) => broad.slice(i + 1, i + 4).map((b) => `${a} ${b}`)), ...broad.slice(0, 10).map((a, i) => `${a} ${typo[i].slice(0, -1)}x`)];
    let many = 0;
    for (const q of queries) {
      for (const models of [null, ['campus.Person'], ['structure.Organization', 'geo.Room']] as const) {
        const a = server.search(q, models === null ? null : [...models]);
        const b = browser.search(q, models === null ? null : [...models]);
        expect(a.count, q).toBe(b.count);
        for (let offset = 0; offset < a.count; offset += 97) expect(a.page(offset, 30), q).toEqual(b.page(offset, 30));
        if (a.count > 100) many++;
      }
    }
    expect(many).toBeGreaterThan(10);
  });

  it('name no object past the last when the spare half of the last byte (odd directory) holds a code', () => {
    const odd = decodeIndex(buildIndexJson(syntheticDirectory(1201, 5)));
    const oddCodes = prefixCodes(odd, 100);
    const bytes = oddCodes.codes.slice();
    const stride = codeStride(odd.size);
    // the upper half of each prefix's last byte belongs to no object (1201 is odd)
    for (let k = 0; k < oddCodes.keys.length; k++) bytes[k * stride + stride - 1] &= 0x0f;
    const damaged = autocompleteOf(readAutocompleteFile(autocompleteFile(odd, prefixTops(odd, 20), { keys: oddCodes.keys, codes: bytes })));
    const good = autocompleteOf(readAutocompleteFile(autocompleteFile(odd, prefixTops(odd, 20), oddCodes)));
    for (let k = 0; k < oddCodes.keys.length; k++) {
      // past the stored first page of a single word, so its objects' list answers it
      const q = oddCodes.keys.at(k);
      const a = damaged.search(q, null);
      expect(a.count).toBe(good.search(q, null).count);
      expect(a.page(20, 2000)).toEqual(good.search(q, null).page(20, 2000));
    }
  });

  it('are refused when a code is none of an exact or prefix match, in any of the bytes', () => {
    const file = (bytes: Uint8Array) => autocompleteFile(index, prefixTops(index, 20), { keys: codes.keys, codes: bytes });
    expect(() => readAutocompleteFile(file(codes.codes))).not.toThrow();
    for (const at of [0, 5, codes.codes.length - 1]) {
      for (const bad of [0x04, 0x70, 0xe3, 0x3e]) {
        const bytes = codes.codes.slice();
        bytes[at] = bad;
        expect(() => readAutocompleteFile(file(bytes))).toThrow(/prefix codes/);
      }
    }
  });
});
