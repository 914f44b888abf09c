// The background build of `aula dev`, in a process of its own: the build is seconds of work on
// one thread at 100k events, and the dev server's thread must stay free to answer and to serve
// the next edit from memory meanwhile. Options come as JSON in argv[2]; the result goes out as
// one line of JSON on stdout (the problems are not repeated: dev has printed them already).
import { build, type BuildOptions } from '../pipeline/build.ts';
import { describeFailure } from '../util/failure.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as BuildOptions;
build(options).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result.ok ? { ok: true, ms: Math.round(result.ms) } : { ok: false, problems: result.problems.length })}\n`);
  },
  (e) => {
    process.stdout.write(`${JSON.stringify({ ok: false, failure: describeFailure(e) })}\n`);
  },
);
