/**
 * The rule messages of spec 1 §5. Each rule says its message twice over: the English text the wire
 * contract carries (`{error: {name: 'Name is required'}}`) and a message key with its parameters
 * (`app.validation.required`), which the server sends beside the text (`messages`, see
 * server/plugins/errors.ts) and the browser translates in the user's language, the field label being
 * the screen's own. Re-exported by ./fields.
 */
export type MessageParams = Record<string, string | number>;

/** A rule message's key: an i18n key of src/i18n, and its parameters other than the field label. */
export interface MessageKey {
  key: string;
  params?: MessageParams;
}

// Texts are made from labels and limits written in the code, so this stays small; the cap guards
// against a rule ever being fed a caller's text.
const KEYS = new Map<string, MessageKey>();
const KEYS_MAX = 5000;

/** The English text of a rule, remembered with its key so `messageKeyOf(text)` finds it again exactly. */
export function keyed(text: string, key: string, params?: MessageParams): string {
  if (!KEYS.has(text) && KEYS.size < KEYS_MAX) KEYS.set(text, params ? { key, params } : { key });
  return text;
}

/** The key of a message made by a domain rule, or undefined for any other text (which then shows as it is). */
export const messageKeyOf = (text: string): MessageKey | undefined => KEYS.get(text);

export const messages = {
  required: (label: string) => keyed(`${label} is required`, 'app.validation.required'),
  email: () => keyed('Enter a valid email address', 'app.validation.email'),
  match: (label: string) => keyed(`${label} does not match`, 'app.validation.match'),
  min: (label: string, min: number) =>
    min <= 0
      ? keyed(`${label} must be greater than or equal to ${min}`, 'app.validation.min', { min })
      : min === 1
        ? keyed(`${label} must be greater than zero`, 'app.validation.greater_than_zero')
        : keyed(`${label} must be at least ${min}`, 'app.validation.at_least', { min }),
  minLength: (label: string, min: number) => keyed(`${label} must be at least ${min} characters`, 'app.validation.min_length', { min }),
  max: (label: string, max: number) => keyed(`${label} must be less than ${max}`, 'app.validation.max', { max }),
  integer: (label: string) => keyed(`${label} must be a whole number`, 'app.validation.integer'),
  url: (label: string) => keyed(`${label} must be a valid URL`, 'app.validation.url'),
  color: (label: string, example: string) => keyed(`${label} must be a colour like ${example}`, 'app.validation.color', { example }),
  digits: (label: string, digits: number) => keyed(`${label} must be exactly ${digits} digits`, 'app.validation.digits', { digits }),
  permissionName: (label: string) =>
    keyed(
      `${label} may only contain lower-case letters, digits and underscores, starting with a letter`,
      'resources.permissions.validation.name_format',
    ),
  /** A unique column's value another row holds (server only). */
  taken: (label: string) => keyed(`The ${label.toLowerCase()} has already been taken.`, 'app.validation.taken'),
  nul: (label: string) => keyed(`${label} must not contain a NUL character`, 'app.validation.nul'),
  currentPassword: () => keyed('The current password is incorrect.', 'app.validation.current_password'),
  invalid: (label: string) => keyed(`${label} is invalid`, 'app.validation.invalid'),
  choice: (label: string) => keyed(`The selected ${label.toLowerCase()} is invalid`, 'app.validation.choice'),
};
