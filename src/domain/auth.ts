import { messages } from './messages';
import { z } from 'zod';
import { PASSWORD_MIN } from './password-rules';
import { safeString, singleLine } from './text';

/** Bodies and replies of the user service's auth routes (the wire contract). */

/** A text field's type error: absent is required, anything but a string is named as such. */
const textError = (label: string) => (i: { input: unknown }) => (i.input == null ? messages.required(label) : `${label} must be a string`);
const requiredText = (label: string, max = 255) =>
  singleLine(label, { error: textError(label) })
    .trim()
    .min(1, messages.required(label))
    .max(max, messages.max(label, max));
const email = (label = 'Email') => requiredText(label).pipe(z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, messages.email()));

export { PASSWORD_MIN };
const newPassword = (label: string) =>
  safeString(label, { error: textError(label) })
    .min(1, messages.required(label))
    .min(PASSWORD_MIN, messages.minLength(label, PASSWORD_MIN))
    .max(200, messages.max(label, 200));

export const LoginBody = z.object({
  email: email(),
  password: safeString('Password', { error: textError('Password') })
    .min(1, messages.required('Password'))
    .max(200, messages.max('Password', 200)),
});
export const ForgotPasswordBody = z.object({ email: email() });
export const ResetPasswordBody = z
  .object({
    token: safeString('Token', { error: () => 'Token is required' }).regex(/^[A-Za-z0-9_-]{43}$/, messages.resetToken()),
    password: newPassword('Password'),
    password_confirmation: safeString('Confirm Password').optional(),
  })
  .refine((b) => b.password_confirmation === undefined || b.password_confirmation === b.password, {
    path: ['password_confirmation'],
    message: messages.match('Confirm Password'),
  });
export const ProfileBody = z
  .object({
    first_name: requiredText('First Name'),
    last_name: requiredText('Last Name'),
    email: email(),
    password: z.preprocess((v) => (v === '' || v === null ? undefined : v), newPassword('Password').optional()),
    /** Needed with a new password or e-mail (the server says 'Current Password is required' when it is missing). */
    current_password: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      safeString('Current Password').max(200, 'Current Password must be less than 200').optional(),
    ),
  })
  .refine((b) => !b.password || b.current_password !== undefined, {
    path: ['current_password'],
    message: 'Current Password is required',
  });

export const CurrentUser = z.object({
  id: z.number(),
  token: z.string().optional(),
  roles: z.array(z.string()),
  permissions: z.array(z.string()),
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  email: z.string(),
  consent: z.number(),
  agents: z.array(z.number()),
  clients: z.array(z.number()),
  impersonator_id: z.number().nullable().optional(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;
