import { describe, expect, it } from 'vitest';
import { memorySource } from './dist-source.ts';
import { crc32Hex, digestOf, DistError, sha256Hex, type Manifest } from '../format/manifest.ts';
import { checkDigest, ChecksumMismatch, verifiedSource } from './verified-source.ts';

const content = new TextEncoder().encode('{"a":1}\n');
const manifest = { files: { 'data/x.json': digestOf(content) } } as unknown as Manifest;
const source = memorySource(new Map([['data/x.json', content], ['data/y.json', content]]), 'dist', false);

describe('verified source', () => {
  it('hashes with the function it is given, whichever computes it', () => {
    const seen: Uint8Array[] = [];
    const sha256 = (bytes: Uint8Array) => (seen.push(bytes), sha256Hex(bytes));
    expect(verifiedSource(source, manifest, sha256).text('data/x.json')).toBe('{"a":1}\n');
    expect(seen).toEqual([content]);
  });

  it('refuses a mismatch as a ChecksumMismatch naming the file, an unlisted file as a plain DistError', () => {
    const wrong = () => '0'.repeat(64);
    expect(() => checkDigest(source, manifest, 'data/x.json', content, wrong)).toThrow(
      new ChecksumMismatch('dist/data/x.json: does not match its SHA-256 in manifest.json; rebuild with `aula build`'),
    );
    expect(() => checkDigest(source, manifest, 'data/x.json', content.subarray(1), sha256Hex)).toThrow(ChecksumMismatch);
    let unlisted: unknown;
    try {
      verifiedSource(source, manifest, sha256Hex).bytes('data/y.json');
    } catch (e) {
      unlisted = e;
    }
    expect(unlisted).toBeInstanceOf(DistError);
    expect(unlisted).not.toBeInstanceOf(ChecksumMismatch);
  });

  it('checks by the CRC-32 the manifest lists when the caller gives one, else by the SHA-256 (an entry without one, a caller without)', () => {
    expect(manifest.files['data/x.json'].crc32).toBe(crc32Hex!(content));
    const neverSha = () => {
      throw new Error('hashed with SHA-256');
    };
    expect(() => checkDigest(source, manifest, 'data/x.json', content, neverSha, crc32Hex)).not.toThrow();
    const wrongCrc = () => '00000000';
    expect(() => checkDigest(source, manifest, 'data/x.json', content, sha256Hex, wrongCrc)).toThrow(
      new ChecksumMismatch('dist/data/x.json: does not match its CRC-32 in manifest.json; rebuild with `aula build`'),
    );
    // no CRC-32 from the caller (the edge, a replica's fetches), or none listed (an older dist): the SHA-256 decides
    expect(() => checkDigest(source, manifest, 'data/x.json', content, sha256Hex)).not.toThrow();
    const { crc32: _, ...shaOnly } = manifest.files['data/x.json'];
    const older = { files: { 'data/x.json': shaOnly } } as unknown as Manifest;
    expect(() => checkDigest(source, older, 'data/x.json', content, sha256Hex, wrongCrc)).not.toThrow();
    expect(() => checkDigest(source, older, 'data/x.json', content, () => '0'.repeat(64), crc32Hex)).toThrow(ChecksumMismatch);
  });
});
