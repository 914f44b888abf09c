import { describe, expect, it } from 'vitest';
import { isPooled, takeBuffer } from '../store/read/page-buffers.ts';
import { BodyChunks, bodyBuffer, detachedBody, joinedOnPool } from './body.ts';

describe('detachedBody (what the answer cache keeps)', () => {
  it('joins an answer of many slices into one buffer, once', () => {
    const parts = ['{"results":[', '{"id":1,"categories":', '[{"id":3}]', '}', ']}'].map((s) => Buffer.from(s));
    const kept = detachedBody(new BodyChunks(parts));
    expect(kept).toBeInstanceOf(Buffer);
    expect(bodyBuffer(kept).toString()).toBe('{"results":[{"id":1,"categories":[{"id":3}]}]}');
  });

  it('copies bytes that lie on the reusable page buffers', () => {
    const pooled = takeBuffer(5000).fill(0x61);
    expect(isPooled(pooled)).toBe(true);
    const kept = detachedBody(new BodyChunks([Buffer.from('['), pooled, Buffer.from(']')])) as Buffer;
    expect(isPooled(kept)).toBe(false);
    expect(kept.length).toBe(5002);
    pooled.fill(0x62); // the pool lends the block again: the kept answer must not change
    expect(kept.subarray(1, 5001).every((b) => b === 0x61)).toBe(true);
    const alone = detachedBody(pooled) as Buffer;
    expect(alone).not.toBe(pooled);
    expect(isPooled(alone)).toBe(false);
  });

  it('keeps a single buffer of its own and text as they are', () => {
    const own = Buffer.from('{"count":0}');
    expect(detachedBody(own)).toBe(own);
    const one = new BodyChunks([own]);
    expect(detachedBody(one)).toBe(one);
    expect(detachedBody('{"a":1}')).toBe('{"a":1}');
  });
});

describe('joinedOnPool (a spliced page from the file, as one buffer)', () => {
  it('copies the chunks in order onto a pooled block and gives their own pooled blocks back', () => {
    const run = takeBuffer(6000).fill(0x61);
    const head = Buffer.from('{"results":[');
    const spliced = Buffer.from('[{"id":3}]');
    const out = joinedOnPool([head, run.subarray(0, 10), spliced, run.subarray(10, 20), Buffer.from(']}')]);
    expect(out.toString()).toBe(`{"results":[${'a'.repeat(10)}[{"id":3}]${'a'.repeat(10)}]}`);
    expect(isPooled(out)).toBe(true);
    expect(out.buffer).not.toBe(run.buffer);
    // the run's block went back to the pool: the next body of its class gets it
    expect(takeBuffer(6000).buffer).toBe(run.buffer);
    // the bytes that were not pooled are left alone
    expect(head.toString()).toBe('{"results":[');
  });

  it('joins an empty list to an empty body', () => {
    expect(joinedOnPool([]).length).toBe(0);
  });
});
