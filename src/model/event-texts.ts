// An event's texts, which a build holds in the event's row rather than on the event once the row
// is made (the parse threads do so: parse-batch.ts), and the types that say so.
import type { Event, Model } from './types.ts';

/**
 * The text fields an event's row holds as the JSON of the record's own value (renderEvent copies
 * them as they are): the largest part of an event, which a build reads from the rows once they are
 * made.
 */
export const EVENT_TEXTS = ['title', 'organizer', 'location', 'teaser', 'body', 'attending_fees_info', 'contact', 'email'] as const satisfies readonly (keyof Event)[];
export type EventText = (typeof EVENT_TEXTS)[number];

/**
 * An event as the build holds it once it is loaded: an event whose row was made as it was parsed
 * comes without its texts (the row holds them), so nothing after the load may read them from it.
 */
export type TextlessEvent = Omit<Event, EventText>;

/** `e` without its texts: a copy (the names are EVENT_TEXTS'; a test checks that none is left). */
export function textless(e: Event): TextlessEvent {
  const { title, organizer, location, teaser, body, attending_fees_info, contact, email, ...rest } = e;
  return rest;
}

/** Whether `e` has its texts (they are absent, not blank, from an event whose row holds them). */
export const hasTexts = (e: TextlessEvent): e is Event => 'body' in e;

/** `e` whole, where every event has its texts (no rows were made ahead): throws on one without. */
export function wholeEvent(e: TextlessEvent): Event {
  if (!hasTexts(e)) throw new Error(`event ${e.id} has no texts and no row made of them`);
  return e;
}

/** The model as the build holds it once it is loaded: its events may come without their texts. */
export type BuildModel = Omit<Model, 'events'> & { events: TextlessEvent[] };
