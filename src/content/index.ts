// The content loader: reads a content folder (content-format.md) into a validated Model.
export { loadContent } from './load.ts';
export { formatProblem, problemCount, problemLines, type Problem } from './problems.ts';
