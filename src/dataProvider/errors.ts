import { HttpError } from 'react-admin';

/** i18n key of the generic failure text 'Server Error!' (spec 1 §8); the toast translates it. */
export const SERVER_ERROR = 'app.error.server';

/** Field name → message, as react-admin shows under inputs. */
export type FieldErrors = Record<string, string>;

const asText = (v: unknown): string | null => {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) {
    const parts = v.map(asText).filter((s): s is string => !!s);
    return parts.length ? parts.join('\n') : null;
  }
  return null;
};

/** Spec 1 §8: object values joined by newlines, a list joined, or the string; else null. */
export function errorText(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && !Array.isArray(error)) {
    return asText(Object.values(error));
  }
  return asText(error);
}

function fieldErrors(error: unknown): FieldErrors | null {
  if (typeof error !== 'object' || error === null || Array.isArray(error)) return null;
  const out: FieldErrors = {};
  for (const [field, value] of Object.entries(error)) {
    const text = asText(value);
    if (text) out[field] = text;
  }
  return Object.keys(out).length ? out : null;
}

const errorMember = (body: unknown) => (typeof body === 'object' && body !== null && 'error' in body ? body.error : undefined);

/**
 * Maps a failed reply to react-admin's HttpError. Status 0 means no reply.
 * 422 with a field map carries `{errors}` so react-admin puts each message under its input.
 */
export function toHttpError(status: number, body: unknown): HttpError {
  if (status === 0 || status >= 500) return new HttpError(SERVER_ERROR, status, body);
  const error = errorMember(body);
  const message = errorText(error) ?? SERVER_ERROR;
  const errors = status === 422 ? fieldErrors(error) : null;
  return new HttpError(message, status, errors ? { errors } : body);
}

/** The 422 field map carried by an HttpError, for react-admin forms to show under inputs. */
export function fieldErrorsOf(error: unknown): FieldErrors | undefined {
  const body = typeof error === 'object' && error !== null && 'body' in error ? error.body : undefined;
  const errors = typeof body === 'object' && body !== null && 'errors' in body ? body.errors : undefined;
  return typeof errors === 'object' && errors !== null ? (errors as FieldErrors) : undefined;
}

/** Spec 1 §8: the 404 reply of a record screen ('No query results for model [Location] 42'). */
export const isRecordNotFound = (error: unknown) => error instanceof Error && error.message.includes('No query results for model');
