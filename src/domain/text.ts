import { z } from 'zod';
import { messages } from './messages';

/**
 * Every text the API reads goes through `safeString`: PostgreSQL text cannot hold U+0000, so a NUL byte
 * would otherwise reach the database and fail there (a 500). Refused here, it is a 422 on the field.
 */
export const hasNul = (s: string) => s.includes('\u0000');
export const nulMessage = messages.nul;

/** z.string() that refuses a NUL byte with `nulMessage(label)`; chain .trim(), .max() etc. as usual. */
export const safeString = (label: string, params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine((s) => !hasNul(s), { error: nulMessage(label), abort: true });

/** A line break (CR, LF, or the Unicode line and paragraph separators). */
export const hasLineBreak = (s: string) => /[\r\n\u2028\u2029]/.test(s);

/**
 * A control character other than a line break (C0, DEL, C1: a tab, a bell, an escape) or a bidirectional embedding,
 * override or isolate (U+202A–U+202E, U+2066–U+2069), which makes a name read in another order than it is stored.
 * The marks U+200E and U+200F stay allowed: mixed-direction text needs them.
 */
export const hasControl = (s: string) =>
  [...s].some((c) => {
    const n = c.codePointAt(0)!;
    const lineBreak = n === 0x0a || n === 0x0d;
    return (n < 0x20 && n !== 0 && !lineBreak) || (n >= 0x7f && n <= 0x9f) || (n >= 0x202a && n <= 0x202e) || (n >= 0x2066 && n <= 0x2069);
  });

/**
 * `safeString` for a one-line value (a name, an e-mail address, a mail subject): a line break is refused with
 * '<Label> must be a single line', so none forges a header or a line of a log the value is written into, and any other
 * control character with '<Label> must not contain control characters'.
 */
export const singleLine = (label: string, params?: Parameters<typeof z.string>[0]) =>
  safeString(label, params)
    .refine((s) => !hasLineBreak(s), { error: messages.lineBreak(label), abort: true })
    .refine((s) => !hasControl(s), { error: messages.control(label), abort: true });

/** A number as a query string or a multipart field writes it: '16', '-2', '12.50'. */
const DECIMAL_TEXT = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$/;

/**
 * `schema` (a z.number() with its checks) reading a number, or text of decimal digits as that number. Anything else
 * (true, [16], '0x10', '1e1', '') reaches the number check as it came and is refused there, where zod's coercion
 * (Number(v)) would read true as 1 and [16] as 16: another record's id.
 */
export const fromDecimalText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && DECIMAL_TEXT.test(v) ? Number(v) : v), schema);
