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
 * A server 422 field message for a react-admin form: with its key, a string react-admin's
 * ValidationError translates, naming the label by its i18n key (`fieldKey`, resolved by the
 * i18n provider); without one, the server's text.
 */
export function serverFieldMessage(text: string, key: MessageKey | undefined, fieldKey: string | undefined): string {
  if (!key || !fieldKey) return text;
  return RA_MESSAGE + JSON.stringify({ message: key.key, args: { ...key.params, fieldKey, _: text } });
}
