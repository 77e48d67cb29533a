import { z } from 'zod';

/**
 * A resource's fields, described once. The server builds its request schema from this
 * (`inputSchema`), the browser builds its form inputs and validators from it, so both say
 * the same rule with the same message: spec 1 §5 '{field} is required',
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
}
export type FieldSpec =
  | (Base & { type: 'text'; max?: number; email?: boolean; multiline?: boolean })
  | (Base & { type: 'choice'; choices: readonly { id: string; name: string }[] })
  | (Base & { type: 'number'; min?: number; max?: number; integer?: boolean })
  | (Base & { type: 'reference'; reference: string })
  | (Base & { type: 'boolean' });

export type FieldSpecs = Record<string, FieldSpec>;

export const messages = {
  required: (label: string) => `${label} is required`,
  email: () => 'Enter a valid email address',
  min: (label: string, min: number) => (min <= 0 ? `${label} must be greater than or equal to ${min}` : min === 1 ? `${label} must be greater than zero` : `${label} must be at least ${min}`),
  max: (label: string, max: number) => `${label} must be less than ${max}`,
  invalid: (label: string) => `${label} is invalid`,
  choice: (label: string) => `The selected ${label.toLowerCase()} is invalid`,
};

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const blankToUndefined = (v: unknown) => (isBlank(v) ? undefined : v);

function fieldSchema(spec: FieldSpec): z.ZodType {
  const req = messages.required(spec.label);
  const onType = (expected: string) => (iss: { input?: unknown }) => (isBlank(iss.input) ? req : `${spec.label} must be ${expected}`);
  let s: z.ZodType;
  switch (spec.type) {
    case 'text': {
      let t = z.string({ error: onType('a string') }).trim().max(spec.max ?? 255, messages.max(spec.label, spec.max ?? 255));
      if (spec.email) t = t.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, messages.email());
      s = t;
      break;
    }
    case 'choice': {
      const ids = spec.choices.map((c) => c.id) as [string, ...string[]];
      s = z.enum(ids, { error: (iss) => (isBlank(iss.input) ? req : messages.choice(spec.label)) });
      break;
    }
    case 'number': {
      let n = z.coerce.number({ error: onType('a number') });
      if (spec.integer) n = n.int(`${spec.label} must be a whole number`);
      if (spec.min !== undefined) n = n.min(spec.min, messages.min(spec.label, spec.min));
      if (spec.max !== undefined) n = n.max(spec.max, messages.max(spec.label, spec.max));
      s = n;
      break;
    }
    case 'reference':
      s = z.coerce.number({ error: onType('an id') }).int(messages.invalid(spec.label)).positive(messages.invalid(spec.label));
      break;
    case 'boolean':
      s = z.union([z.boolean(), z.literal(0), z.literal(1)], { error: onType('true or false') }).transform((v) => v === true || v === 1);
      break;
  }
  // Presence is checked before any coercion, so a blank number says 'is required', not 'must be a number'.
  const present = z.unknown().refine((v) => v !== undefined, { error: req, abort: true });
  return z.preprocess(blankToUndefined, spec.required ? present.pipe(s) : s.optional().nullable());
}

/** The request body schema for create and update: unknown keys are dropped, read-only fields ignored. */
export function inputSchema(specs: FieldSpecs) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, spec] of Object.entries(specs)) if (!spec.readOnly) shape[name] = fieldSchema(spec);
  return z.object(shape);
}

/** The browser-side check of one value, returning the same English message the server would. */
export function checkField(spec: FieldSpec, value: unknown): string | undefined {
  const r = fieldSchema(spec).safeParse(value);
  return r.success ? undefined : r.error.issues[0]?.message;
}
