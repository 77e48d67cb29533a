import { createHash, randomBytes } from 'node:crypto';

/** 256-bit random token, URL-safe (43 characters). */
export const newToken = () => randomBytes(32).toString('base64url');
/** Tokens are stored only as this digest, so a database leak does not hand out sessions. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
