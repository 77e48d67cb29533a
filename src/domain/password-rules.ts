/** The shortest password accepted anywhere (sign-up by an admin, reset, profile); kept free of zod so list screens can import it cheaply. */
export const PASSWORD_MIN = 8;
