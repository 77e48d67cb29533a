/**
 * How Node runs the server (`npm start`, the bench, the cluster's instances): V8 flags, said once here. package.json's
 * `start` script spells them out too; `tests/server/runtime.test.ts` keeps the two the same.
 *
 * `--max-semi-space-size=64`: a young generation of 64 MB per semi-space (Node 20's default is 16 MB). An API
 * request allocates its rows, strings and promises and drops them; with the small default they are scavenged, and
 * some promoted, several times a second under load. Measured on a page of 25 rows (alternating A/B): about
 * 15 % more requests per second, for about 110 MB more resident memory under load.
 */
export const NODE_RUNTIME_FLAGS = ['--max-semi-space-size=64'] as const;
