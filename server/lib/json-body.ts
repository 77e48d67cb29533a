import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../errors';

/** Deepest nesting of arrays and objects a JSON body may have; the deepest form of the API needs under ten. */
export const MAX_JSON_DEPTH = 32;
/** A member name longer than this is not echoed back as the field of the error. */
const MAX_LABEL = 100;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/**
 * The top-level member under which `text` nests deeper than `max` ('body' when it is the body itself), or null when
 * it does not. One pass over the characters, no parsing and no recursion: time linear in the size, whatever the shape.
 */
export function tooDeep(text: string, max = MAX_JSON_DEPTH): string | null {
  let depth = 0;
  let topIsObject = false;
  // The last string seen directly in the top-level object: the member name of any deeper value that follows it.
  let keyStart = -1;
  let keyEnd = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
      if (depth === 1) {
        keyStart = start;
        keyEnd = i;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === 0) topIsObject = c === OPEN_OBJECT;
      if (++depth > max) return topIsObject ? labelOf(text, keyStart, keyEnd) : 'body';
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return null;
}

function labelOf(text: string, start: number, end: number): string {
  if (start < 0 || end - start > MAX_LABEL) return 'body';
  try {
    const label = JSON.parse(text.slice(start, end + 1)) as unknown;
    return typeof label === 'string' && label && !label.includes('\u0000') ? label : 'body';
  } catch {
    return 'body';
  }
}

const isPlainJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * Fastify's JSON body parser (prototype poisoning refused, as by default), after a depth check on the raw text: a
 * deeply nested body is a 422 before anything parses or walks it, so no request costs more than its size.
 */
export function boundedJsonParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    const field = tooDeep(text);
    if (field) {
      done(new ValidationError({ [field]: `${field} is nested too deeply (at most ${MAX_JSON_DEPTH} levels)` }), undefined);
      return;
    }
    void parse(req, text, (error, parsed) => {
      // The parser refuses a `__proto__` or `constructor.prototype` key as it refuses broken JSON: say which it was.
      if (error && isPlainJson(text)) {
        done(new ValidationError({ body: 'Body must not hold a __proto__ or constructor.prototype key' }), undefined);
        return;
      }
      done(error, parsed);
    });
  });
}
