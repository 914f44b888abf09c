// Large buffers on transparent huge pages, for the processes aula starts itself. A process that
// reads dist/ or builds one fills hundreds of megabytes of fresh ArrayBuffer memory, which Node
// takes from glibc's malloc; on 4 KiB pages each first touch of a page is a fault, and on virtual
// machines that hand memory back to their host (balloons, free page reporting) a fault costs tens
// of microseconds, so the faults can outweigh the reads. Where transparent huge pages are left to
// madvise (the common default), glibc's `glibc.malloc.hugetlb=1` tunable asks for them on what
// malloc maps: one fault per 2 MiB. glibc reads its tunables only as a process starts, so this is
// the environment to start a process with; a setting of the user's is left as it is.

const TUNABLE = 'glibc.malloc.hugetlb';

/** `env`'s GLIBC_TUNABLES with huge pages asked for malloc's maps, on Linux; unchanged where the user set that tunable. */
export function hugePageEnv(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): { GLIBC_TUNABLES?: string } {
  const given = env.GLIBC_TUNABLES;
  if (platform !== 'linux') return given === undefined ? {} : { GLIBC_TUNABLES: given };
  if (given?.split(':').some((t) => t.split('=')[0] === TUNABLE)) return { GLIBC_TUNABLES: given };
  return { GLIBC_TUNABLES: given ? `${given}:${TUNABLE}=1` : `${TUNABLE}=1` };
}
