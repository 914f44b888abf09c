// Each object's match code for the broadest word prefixes, made at build time and kept in
// data/autocomplete.bin (PrefixCodes): in a query of several words, a broad word ("a", "sch")
// is checked against the candidates of the rarer ones, and scanning its tens of thousands of
// postings for a few hundred candidates is most of the request's work; a lookup per candidate
// is not. 4 bits per object and prefix (a code is 0..3, NO_CODE beside them).
import { codeStride, NO_CODE, type IndexData, type PrefixCodes } from '../../store/format/autocomplete-index.ts';
import { stringList } from '../../store/format/string-table.ts';
import { planWord } from './plan.ts';
import { broadPrefixes } from './prefix-tops.ts';
import { TIER_EXACT, TIER_PREFIX } from './rank.ts';

/**
 * Prefixes with fewer exact and prefix postings than this share of the objects, or than
 * MIN_CODE_POSTINGS, are scanned as they are asked: a table costs size / 2 bytes whatever the
 * prefix matches, and pays where scanning its postings costs many times a candidate's lookup.
 */
const CODE_SHARE = 1 / 32;
const MIN_CODE_POSTINGS = 512;

export function prefixCodes(index: IndexData, minPostings = Math.max(MIN_CODE_POSTINGS, Math.ceil(index.size * CODE_SHARE))): PrefixCodes {
  const keys = broadPrefixes(index, minPostings).sort();
  const stride = codeStride(index.size);
  const codes = new Uint8Array(keys.length * stride).fill(NO_CODE * 17);
  const { postings, postStart } = index;
  keys.forEach((key, k) => {
    const { lo, hi, exact } = planWord(index, { forms: [key], maxEdits: 0 }).ranges[0];
    const base = k * stride;
    for (let t = lo; t < hi; t++) {
      const tier = (t === exact ? TIER_EXACT : TIER_PREFIX) * 2;
      for (let p = postStart[t]; p < postStart[t + 1]; p++) {
        const doc = postings[p] >> 1;
        const code = tier + (postings[p] & 1);
        const at = base + (doc >> 1);
        const shift = (doc & 1) << 2;
        if (code < ((codes[at] >> shift) & 15)) codes[at] = (codes[at] & ~(15 << shift)) | (code << shift);
      }
    }
  });
  return { keys: stringList(keys), codes };
}
