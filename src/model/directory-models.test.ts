import { describe, expect, it } from 'vitest';
import { CTYPES, modelMask, parseModels } from './directory-models.ts';

const ALLOWED = 'campus.Person, campus.Room, campus.Student, geo.Room, structure.Organization, structure.Person';

describe('parseModels', () => {
  it('treats a missing, empty or blank m as no restriction', () => {
    for (const m of [undefined, '', ' ', ',', ' , ,, ']) expect(parseModels(m)).toEqual({ ok: true, models: null });
  });

  it('matches names case-insensitively and trims items', () => {
    expect(parseModels('campus.person')).toEqual({ ok: true, models: ['campus.Person'] });
    expect(parseModels(' CAMPUS.PERSON , geo.room,')).toEqual({ ok: true, models: ['campus.Person', 'geo.Room'] });
  });

  it('drops duplicates', () => {
    expect(parseModels('geo.Room,GEO.ROOM')).toEqual({ ok: true, models: ['geo.Room'] });
  });

  it('rejects an unknown model, naming it and the allowed values', () => {
    expect(parseModels('campus.Person,foo.Bar')).toEqual({
      ok: false,
      message: `Select a valid choice. "foo.Bar" is not one of ${ALLOWED}.`,
    });
    expect(parseModels(' campus ')).toEqual({
      ok: false,
      message: `Select a valid choice. "campus" is not one of ${ALLOWED}.`,
    });
  });
});

describe('modelMask and ctypes', () => {
  it('sets one bit per listed model; null and [] mean all', () => {
    expect(modelMask(['campus.Person'])).toBe(1);
    expect(modelMask(['geo.Room', 'structure.Person'])).toBe(8 | 32);
    expect(modelMask(null)).toBe(63);
    expect(modelMask([])).toBe(63);
  });

  it('writes ctypes in lower case', () => {
    expect(CTYPES).toEqual(['campus.person', 'campus.room', 'campus.student', 'geo.room', 'structure.organization', 'structure.person']);
  });
});
