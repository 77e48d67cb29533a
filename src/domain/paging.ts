/**
 * The list routes' paging bounds, shared by the server's query schemas (./fields.ts `pageParams`) and the data
 * provider, which reads a longer run of rows (an export of a described list) as several pages. No zod here: the
 * data provider is in every screen's code.
 */
export const PAGE_SIZE_MAX = 100;
export const PAGE_MAX = 10_000_000;
