import { z } from 'zod';
import { messages } from './messages';
import { PAGE_MAX, PAGE_SIZE_MAX } from './paging';
import { safeString, singleLine, fromDecimalText } from './text';

/**
 * A resource's fields, described once. The server builds its request schema from this
 * (`inputSchema`), the browser builds its form inputs and validators from it, so both say
 * the same rule with the same message: '{field} is required',
 * 'Enter a valid email address', '{field} must be greater than zero', '{field} must be less than {max}'.
 */
interface Base {
  /** English label used in server messages; the browser shows resources.<name>.fields.<field>. */
  label: string;
  required?: boolean;
  /** Shown in the list table. */
  list?: boolean;
  /** Omitted from the form (read-only or set by the server). */
  readOnly?: boolean;
  /** Required when creating only (a password: blank on edit means unchanged). */
  requiredOnCreate?: boolean;
  /** Not a column of the resource's table: a relation the resource's hooks write (roles of a user). */
  virtual?: boolean;
  /** The value an optional field takes when left blank (the form's initial value too), e.g. a panel's type 'D'. */
  default?: string | number | boolean;
}
export type FieldSpec =
  | (Base & { type: 'text'; max?: number; email?: boolean; multiline?: boolean; url?: boolean })
  | (Base & { type: 'choice'; choices: readonly { id: string; name: string }[] })
  | (Base & { type: 'number'; min?: number; max?: number; integer?: boolean })
  /**
   * One id of another resource. With `sameAs`, once the form's field of that name is chosen, only the records whose
   * `sameAs` column equals it, or is empty, are offered (a device's site: its owner's or nobody's); the referenced list
   * carries the column.
   */
  | (Base & { type: 'reference'; reference: string; sameAs?: string })
  /** Several ids (or names, with `by: 'name'`) of another resource, e.g. a user's agents or roles. */
  | (Base & { type: 'references'; reference: string; by?: 'id' | 'name' })
  /** Stored as true/false, or as 1/0 with `numeric` (flags the wire gives as 1 or 0). */
  | (Base & { type: 'boolean'; numeric?: boolean })
  /** Several values from a fixed list (a webhook's events), stored as a text array. */
  | (Base & { type: 'multichoice'; choices: readonly { id: string; name: string }[] })
  /** Write-only; stored as an argon2 hash in the column `<name>_hash`, never returned. */
  | (Base & { type: 'secret'; min?: number; pattern?: { regex: string; message: string } })
  /** HTML from a rich-text editor; the server sanitises it with an allowlist before storing. */
  | (Base & { type: 'richtext'; max?: number })
  | (Base & { type: 'color' })
  /**
   * An uploaded image, sent as the multipart file `upload` (e.g. logoFile); the server checks it,
   * stores it and keeps its URL in the column. A string value (the current URL echoed back) means unchanged.
   */
  | (Base & { type: 'image'; upload: string });

export type FieldSpecs = Record<string, FieldSpec>;

// The messages live in a zod-free module so screens can quote them without downloading zod.
export { messages };

const pageNumber = (label: string, max: number, fallback: number) =>
  fromDecimalText(
    z
      .number({ error: `${label} must be a number` })
      .int(messages.integer(label))
      .min(1, messages.min(label, 1))
      .max(max, messages.max(label, max))
      .default(fallback),
  );
/** `page` and `per_page` of every list route (`?page=2&per_page=25`), each refused with a message naming it. */
export const pageParams = { page: pageNumber('Page', PAGE_MAX, 1), per_page: pageNumber('Per Page', PAGE_SIZE_MAX, 10) };

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const blankToUndefined = (v: unknown) => (isBlank(v) ? undefined : v);

export type FormMode = 'create' | 'update';

function fieldSchema(spec: FieldSpec, mode: FormMode = 'create'): z.ZodType {
  const req = messages.required(spec.label);
  const required = spec.required || (spec.requiredOnCreate && mode === 'create');
  const onType = (expected: Parameters<typeof messages.type>[1]) => (iss: { input?: unknown }) =>
    isBlank(iss.input) ? req : messages.type(spec.label, expected);
  let s: z.ZodType;
  switch (spec.type) {
    case 'text': {
      let t = (spec.multiline ? safeString : singleLine)(spec.label, { error: onType('a string') })
        .trim()
        .max(spec.max ?? 255, messages.max(spec.label, spec.max ?? 255));
      if (spec.email) t = t.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, messages.email());
      if (spec.url) t = t.regex(/^https?:\/\/[^\s/$.?#].[^\s]*$/i, messages.url(spec.label));
      s = t;
      break;
    }
    case 'choice': {
      const ids = spec.choices.map((c) => c.id) as [string, ...string[]];
      s = z.enum(ids, { error: (iss) => (isBlank(iss.input) ? req : messages.choice(spec.label)) });
      break;
    }
    case 'number': {
      let n = z.number({ error: onType('a number') });
      if (spec.integer) n = n.int(messages.integer(spec.label));
      // A decimal bounded by 1 (a price): the spec's 'greater than zero' for 0 and below, 'at least 1' for a fraction of it.
      if (spec.min === 1 && !spec.integer)
        n = n.positive(messages.min(spec.label, 1)).refine((v) => v <= 0 || v >= 1, messages.min(spec.label, 1, false));
      else if (spec.min !== undefined) n = n.min(spec.min, messages.min(spec.label, spec.min));
      if (spec.max !== undefined) n = n.max(spec.max, messages.max(spec.label, spec.max));
      s = fromDecimalText(n);
      break;
    }
    case 'reference':
      s = fromDecimalText(
        z
          .number({ error: onType('an id') })
          .int(messages.invalid(spec.label))
          .positive(messages.invalid(spec.label)),
      );
      break;
    case 'references': {
      const item = spec.by === 'name' ? safeString(spec.label).trim().min(1).max(255) : fromDecimalText(z.number().int().positive());
      const arr = z.array(item, { error: onType('a list') });
      s = spec.required ? arr.min(1, req) : arr;
      break;
    }
    case 'boolean': {
      const numeric = spec.numeric;
      s = z
        .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.literal('true'), z.literal('false')], {
          error: onType('true or false'),
        })
        .transform((v) => v === true || v === 1 || v === '1' || v === 'true')
        .transform((v) => (numeric ? (v ? 1 : 0) : v));
      break;
    }
    case 'multichoice': {
      const ids: readonly string[] = spec.choices.map((c) => c.id);
      const arr = z.array(safeString(spec.label, { error: messages.choice(spec.label) }), { error: onType('a list') });
      // One message on the field itself (not on `events.0`), so the form shows it under the input.
      s = (spec.required ? arr.min(1, req) : arr).refine((values) => values.every((v) => ids.includes(v)), {
        error: messages.choice(spec.label),
      });
      break;
    }
    case 'image':
      // The file itself is checked by the server (type by magic bytes, size, pixels); here only its presence.
      s = z.custom<object>((v) => typeof v === 'object' && v !== null, { error: messages.imageFile(spec.label) });
      break;
    case 'secret': {
      let t = safeString(spec.label, { error: onType('a string') })
        .min(spec.min ?? 8, messages.minLength(spec.label, spec.min ?? 8))
        .max(200, messages.max(spec.label, 200));
      if (spec.pattern) t = t.regex(new RegExp(spec.pattern.regex), spec.pattern.message);
      s = t;
      break;
    }
    case 'richtext':
      s = safeString(spec.label, { error: onType('a string') }).max(spec.max ?? 200_000, messages.max(spec.label, spec.max ?? 200_000));
      break;
    case 'color':
      s = safeString(spec.label, { error: onType('a string') }).regex(/^#[0-9a-fA-F]{6}$/, messages.color(spec.label, '#0c1839'));
      break;
  }
  // Presence is checked before any coercion, so a blank number says 'is required', not 'must be a number'.
  const present = z.unknown().refine((v): boolean => v !== undefined, { error: req, abort: true });
  // An image's current URL sent back by the form means "keep it": only a new upload changes it.
  const blank = spec.type === 'image' ? (v: unknown) => (typeof v === 'string' ? undefined : blankToUndefined(v)) : blankToUndefined;
  if (required) return z.preprocess(blank, present.pipe(s));
  return z.preprocess(blank, spec.default !== undefined ? s.default(spec.default) : s.optional().nullable());
}

/**
 * The request body schema for create or update: unknown keys are dropped, read-only fields ignored. On update a field
 * the body does not name is left out (the row keeps its value) rather than given its default; a blank one still
 * clears it (or restores the default).
 */
export function inputSchema(specs: FieldSpecs, mode: FormMode = 'create') {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.readOnly) continue;
    const schema = fieldSchema(spec, mode);
    shape[name] = mode === 'update' && !spec.required ? schema.optional() : schema;
  }
  return z.object(shape);
}

/** The browser-side check of one value, returning the same English message the server would. */
export function checkField(spec: FieldSpec, value: unknown, mode: FormMode = 'create'): string | undefined {
  const r = fieldSchema(spec, mode).safeParse(value);
  return r.success ? undefined : r.error.issues[0]?.message;
}
