import type { ValidationErrorMessage } from 'react-admin';
import { type MessageKey, messageKeyOf } from '../domain/messages';

/**
 * A domain rule's message ('Name is required') as react-admin translates it in the user's language:
 * its message key (src/domain/messages.ts; from a server 422's `messages` when given) with `field`
 * the translated label. A text no rule made passes through as it is.
 */
export function translatableRule(
  english: string,
  field: string,
  key: MessageKey | undefined = messageKeyOf(english),
): ValidationErrorMessage {
  return key ? { message: key.key, args: { ...key.params, field, _: english } } : english;
}

// react-admin's form keeps server errors as strings; ValidationError reads this prefix back as {message, args}.
const RA_MESSAGE = '@@react-admin@@';

/**
 * A toast made of several translatable lines (a 422's field messages, joined by newlines):
 * this prefix and a JSON list of {message, args}, which the i18n provider translates line by line,
 * so react-admin's own error toast shows the server's messages in the user's language.
 */
export const MESSAGE_LINES = '@@message-lines@@';

export interface MessageLine {
  message: string;
  args?: Record<string, unknown>;
}

export const messageLines = (lines: MessageLine[]) => MESSAGE_LINES + JSON.stringify(lines);

/** The lines of a `messageLines` text, or null for any other text. */
export function parseMessageLines(text: string): MessageLine[] | null {
  if (!text.startsWith(MESSAGE_LINES)) return null;
  try {
    const lines = JSON.parse(text.slice(MESSAGE_LINES.length)) as unknown;
    return Array.isArray(lines) ? (lines as MessageLine[]) : null;
  } catch {
    return null;
  }
}

/**
 * A server 422 field message for a react-admin form: with its key, a string react-admin's
 * ValidationError translates, naming the label by its i18n key (`fieldKey`, resolved by the
 * i18n provider); without one, the server's text.
 */
export function serverFieldMessage(text: string, key: MessageKey | undefined, fieldKey: string | undefined): string {
  const line = serverMessageLine(text, key, fieldKey);
  return line.message === text ? text : RA_MESSAGE + JSON.stringify(line);
}

/** The same message as one line of a toast (`messageLines`). */
export function serverMessageLine(text: string, key: MessageKey | undefined, fieldKey: string | undefined): MessageLine {
  if (!key || !fieldKey) return { message: text, args: { _: text } };
  return { message: key.key, args: { ...key.params, fieldKey, _: text } };
}
