import type { ValidationErrorMessage } from 'react-admin';

type Args = Record<string, string | number>;

/** The English rule messages of src/domain (same as the server's), each with its i18n key; order matters. */
const RULES: [pattern: RegExp, key: string, args?: (match: RegExpMatchArray) => Args][] = [
  [/^Enter a valid email address$/, 'app.validation.email'],
  [/^.+ is required$/, 'app.validation.required'],
  [/^.+ does not match$/, 'app.validation.match'],
  [/^.+ must be greater than zero$/, 'app.validation.greater_than_zero'],
  [/^.+ must be greater than or equal to (-?[\d.]+)$/, 'app.validation.min', (m) => ({ min: Number(m[1]) })],
  [/^.+ must be at least (\d+) characters$/, 'app.validation.min_length', (m) => ({ min: Number(m[1]) })],
  [/^.+ must be at least (-?[\d.]+)$/, 'app.validation.at_least', (m) => ({ min: Number(m[1]) })],
  [/^.+ must be less than (-?[\d.]+)$/, 'app.validation.max', (m) => ({ max: Number(m[1]) })],
  [/^.+ must be a whole number$/, 'app.validation.integer'],
  [/^.+ must be a valid URL$/, 'app.validation.url'],
  [/^.+ must be a colour like (#[0-9a-fA-F]+)$/, 'app.validation.color', (m) => ({ example: m[1] })],
  [/^The selected .+ is invalid$/, 'app.validation.choice'],
  [
    /^.+ may only contain lower-case letters, digits and underscores, starting with a letter$/,
    'resources.permissions.validation.name_format',
  ],
  [/^.+ must be exactly (\d+) digits$/, 'app.validation.digits', (m) => ({ digits: Number(m[1]) })],
  [/^.+ must not contain a NUL character$/, 'app.validation.nul'],
  [/^The current password is incorrect\.$/, 'app.validation.current_password'],
  [/^.+ is invalid$/, 'app.validation.invalid'],
];

/**
 * Turns a domain rule message ('Name is required') into one react-admin translates in the user's
 * language, with `field` the translated label. Messages it does not know pass through as they are.
 */
export function translatableRule(english: string, field: string): ValidationErrorMessage {
  for (const [pattern, message, args] of RULES) {
    const match = english.match(pattern);
    if (match) return { message, args: { ...args?.(match), field } };
  }
  return english;
}
