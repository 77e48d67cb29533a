import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hasNul, nulMessage } from '../../src/domain/text';

/**
 * The path of the first string (or key) holding a NUL byte in a body, query or params value, or null. One path is
 * kept and copied only when found, so the walk is linear in the size of the value (its depth is bounded by the
 * JSON body parser, server/lib/json-body.ts).
 */
export function findNul(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  const at: (string | number)[] = [...path];
  const walk = (v: unknown): boolean => {
    if (typeof v === 'string') return hasNul(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        at.push(i);
        if (walk(v[i])) return true;
        at.pop();
      }
      return false;
    }
    // Uploaded files (multipart) carry their bytes in a Buffer: binary, not text.
    if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const key of Object.keys(v)) {
        at.push(key);
        if (hasNul(key) || walk((v as Record<string, unknown>)[key])) return true;
        at.pop();
      }
    }
    return false;
  };
  return walk(value) ? at : null;
}

/**
 * The zod validator of every route, with one more rule for all of them: no text holds a NUL byte.
 * Fields built on `safeString` (src/domain/text.ts) say so with their label; this catches any other string
 * (a route schema's plain z.string(), an ignored member), so a NUL never reaches PostgreSQL as a 500.
 */
export const nulSafeValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return (data: unknown) => {
    const result = validate(data);
    if (typeof result !== 'object' || 'then' in result || result.error) return result;
    const path = findNul(data);
    if (!path) return result;
    const label = path.length ? String(path[path.length - 1]) : 'Value';
    // Reported through the same validator, so the error handler gives the usual 422 field map.
    const refuse = z.unknown().superRefine((_, ctx) => ctx.addIssue({ code: 'custom', path, message: nulMessage(label) }));
    return validatorCompiler({ ...route, schema: refuse })(data);
  };
};
