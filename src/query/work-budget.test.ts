import { describe, expect, it } from 'vitest';
import { activeMeter, charge, metered, WorkLimitExceeded, WorkMeter } from './work-budget.ts';

describe('work budget', () => {
  it('charges the request being answered, and nothing outside one', () => {
    charge(1e12, 'outside');
    const meter = new WorkMeter(100);
    metered(meter, () => {
      charge(40, 'a');
      charge(60, 'b');
    });
    expect(meter.used).toBe(100);
    expect(meter.left).toBe(0);
    expect(activeMeter()).toBeNull();
  });

  it('stops the request that goes past its limit, naming what did', () => {
    const meter = new WorkMeter(100);
    let after = false;
    const run = () =>
      metered(meter, () => {
        charge(60, 'a');
        charge(60, 'title__iregex');
        after = true;
      });
    expect(run).toThrow(WorkLimitExceeded);
    expect(after).toBe(false);
    try {
      metered(new WorkMeter(10), () => charge(11, 'teaser__icontains'));
    } catch (e) {
      expect((e as WorkLimitExceeded).what).toBe('teaser__icontains');
      expect((e as WorkLimitExceeded).limit).toBe(10);
    }
    expect(activeMeter()).toBeNull();
  });

  it('nests: an outer meter counts what an inner one does too, and is back after it', () => {
    const outer = new WorkMeter(1000);
    const inner = new WorkMeter(1000);
    metered(outer, () => {
      charge(1, 'x');
      metered(inner, () => charge(5, 'y'));
      charge(2, 'z');
    });
    expect(outer.used).toBe(8);
    expect(inner.used).toBe(5);
    expect(() => metered(new WorkMeter(10), () => metered(new WorkMeter(100), () => charge(11, 'x')))).toThrow(WorkLimitExceeded);
  });
});
