import { HttpError } from 'react-admin';
import { messageLines, serverFieldMessage, serverMessageLine } from '../i18n/ruleMessages';
import type { MessageKey } from '../domain/messages';

/** i18n key of 'Login token expired', what every call refused with 401 says. */
export const TOKEN_EXPIRED = 'app.auth.token_expired';

/** i18n key of the generic failure text 'Server Error!'; the toast translates it. */
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

/** Object values joined by newlines, a list joined, or the string; else null. */
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

/** A 422's message keys beside its field map (server/plugins/errors.ts), when the server sent them. */
function messageKeys(body: unknown): Record<string, MessageKey> | null {
  const keys = typeof body === 'object' && body !== null && 'messages' in body ? body.messages : null;
  return typeof keys === 'object' && keys !== null && !Array.isArray(keys) ? (keys as Record<string, MessageKey>) : null;
}

const errorMember = (body: unknown) => (typeof body === 'object' && body !== null && 'error' in body ? body.error : undefined);

/**
 * A refusal's text as the toasts show it, in the user's language where the app knows its words (`messageLines`, which
 * the i18n provider translates): a 429 says how long to wait; a text a domain rule made comes with its key
 * (`message`, as the server adds it for `X-Message-Keys: 1`). Any other text shows as the server wrote it.
 */
function inUserLanguage(status: number, text: string, body: unknown, retryAfter?: number): string {
  if (status === 429)
    return messageLines([
      retryAfter
        ? { message: 'app.errors.too_many', args: { seconds: retryAfter, _: text } }
        : { message: 'app.errors.slow_down', args: { _: text } },
    ]);
  const key = typeof body === 'object' && body !== null && 'message' in body ? (body.message as MessageKey | null) : null;
  return key && typeof key.key === 'string' ? messageLines([{ message: key.key, args: { ...key.params, _: text } }]) : text;
}

/** The seconds a refused call says to wait before trying again (a 429's Retry-After), when it says so. */
export const retryAfterOf = (error: unknown) =>
  error instanceof HttpError && 'retryAfter' in error && typeof error.retryAfter === 'number' ? error.retryAfter : undefined;

/**
 * Maps a failed reply to react-admin's HttpError. Status 0 means no reply.
 * 422 with a field map carries `{errors}` so react-admin puts each message under its input.
 */
export function toHttpError(status: number, body: unknown, retryAfter?: number): HttpError {
  if (status === 0 || status >= 500) return new HttpError(SERVER_ERROR, status, body);
  // The session is over: whatever the call was, the user reads 'Login token expired' (spec: HTTP 401).
  if (status === 401) return new HttpError(TOKEN_EXPIRED, status, body);
  const error = errorMember(body);
  const message = inUserLanguage(status, errorText(error) ?? SERVER_ERROR, body, retryAfter);
  const errors = status === 422 ? fieldErrors(error) : null;
  const messages = errors ? messageKeys(body) : null;
  const payload = errors ? (messages ? { errors, messages } : { errors }) : body;
  const refused = new HttpError(message, status, payload);
  // HttpError keeps its own prototype, so a subclass would not survive: the wait rides on the error itself.
  return retryAfter ? Object.assign(refused, { retryAfter }) : refused;
}

/**
 * Puts a 422's message keys into its field map for react-admin forms: each keyed message is translated
 * on screen with the field's label `labelKey(field)` (e.g. resources.locations.fields.name). The error's
 * message, which the error toast shows, becomes the same lines (`messageLines`), translated by the i18n
 * provider; a field without a key keeps the server's text.
 */
export function translateFieldErrors(error: unknown, labelKey: (field: string) => string | undefined): void {
  if (!(error instanceof HttpError) || error.status !== 422) return;
  const body = error.body as { errors?: FieldErrors; messages?: Record<string, MessageKey> } | undefined;
  if (!body?.errors || !body.messages) return;
  const lines = [];
  for (const [field, text] of Object.entries(body.errors)) {
    const key = body.messages[field];
    lines.push(serverMessageLine(text, key, labelKey(field)));
    body.errors[field] = serverFieldMessage(text, key, labelKey(field));
  }
  delete body.messages;
  error.message = messageLines(lines);
}

/**
 * The 422 field map carried by an HttpError, for react-admin forms to show under inputs; with
 * `labels` (field → i18n key of its label) keyed messages show in the user's language.
 */
export function fieldErrorsOf(error: unknown, labels?: Record<string, string>): FieldErrors | undefined {
  if (labels) translateFieldErrors(error, (field) => labels[field]);
  const body = typeof error === 'object' && error !== null && 'body' in error ? error.body : undefined;
  const errors = typeof body === 'object' && body !== null && 'errors' in body ? body.errors : undefined;
  return typeof errors === 'object' && errors !== null ? (errors as FieldErrors) : undefined;
}

/** The 404 reply of a record screen ('No query results for model [Location] 42'). */
export const isRecordNotFound = (error: unknown) => error instanceof Error && error.message.includes('No query results for model');
