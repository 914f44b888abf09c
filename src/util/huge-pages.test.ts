import { describe, expect, it } from 'vitest';
import { hugePageEnv } from './huge-pages.ts';

describe('hugePageEnv: huge pages asked of glibc for a process aula starts', () => {
  it('adds the tunable on Linux, after any other tunable the user set', () => {
    expect(hugePageEnv({}, 'linux')).toEqual({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' });
    expect(hugePageEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, 'linux')).toEqual({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1' });
  });

  it('leaves a hugetlb setting of the user\u2019s as it is, and any other platform alone', () => {
    expect(hugePageEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }, 'linux')).toEqual({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' });
    expect(hugePageEnv({}, 'darwin')).toEqual({});
    expect(hugePageEnv({ GLIBC_TUNABLES: 'x=1' }, 'darwin')).toEqual({ GLIBC_TUNABLES: 'x=1' });
  });
});
