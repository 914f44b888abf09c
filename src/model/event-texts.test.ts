import { describe, expect, it } from 'vitest';
import { EVENT_TEXTS, hasTexts, wholeEvent, type TextlessEvent } from './event-texts.ts';
import type { Event } from './types.ts';

describe('an event’s texts', () => {
  const texts = { title: 't', organizer: null, location: null, teaser: '', body: '', attending_fees_info: null, contact: null, email: null };

  it('are there or absent, never blank in their stead', () => {
    const whole = { id: 1, ...texts } as unknown as Event;
    const textless = { id: 2 } as unknown as TextlessEvent;
    expect(Object.keys(texts).sort()).toEqual([...EVENT_TEXTS].sort());
    expect(hasTexts(whole)).toBe(true);
    expect(wholeEvent(whole)).toBe(whole);
    expect(hasTexts(textless)).toBe(false);
    expect(() => wholeEvent(textless)).toThrow(/event 2 has no texts/);
  });
});
