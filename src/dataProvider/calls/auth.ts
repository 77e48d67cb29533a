import type { Identifier } from 'react-admin';
import type { Request } from '../http';

/** The user service's account calls: sign-in help, the signed-in user, impersonation, API keys. */
export const authCalls = (request: Request) => ({
  /** Accepts the terms; the reply is the updated user. */
  acceptTerms: () => request('user', 'auth/consent', { method: 'POST' }),
  /** Mails a reset link; sent without a token. */
  forgotPassword: (email: string) => request('user', 'auth/forgot-password', { method: 'POST', body: { email }, token: null }),
  /** Sets a new password with the mailed token; sent without a bearer token. */
  resetPassword: (body: { token: string; password: string; password_confirmation: string }) =>
    request('user', 'auth/reset-password', { method: 'POST', body, token: null }),
  /** The signed-in user as the server has it now. */
  currentUser: () => request('user', 'auth/user'),
  /** Saves the user's own profile; the reply is the updated user. */
  updateProfile: (body: object) => request('user', 'auth/profile', { method: 'PUT', body }),
  /** Signs in as another user; the reply is that user. */
  impersonate: (userId: Identifier) => request('user', `auth/impersonate/take/${encodeURIComponent(String(userId))}`),
  /** Goes back to the admin who impersonated; the reply is the admin. */
  leaveImpersonation: (adminId: Identifier) => request('user', `auth/impersonate/${adminId}/leave`),
  /** A new API key for a user. */
  newApiKey: (userId: Identifier) => request<{ token?: unknown }>('user', `users/${encodeURIComponent(String(userId))}/apikey`),
});
