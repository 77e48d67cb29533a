/** The public sign-in pages link to one another, so their paths live apart from the pages. */
export { LOGIN_PATH as loginPath } from '../authProvider/authProvider';
export const forgotPasswordPath = '/forgot-password';
export const resetPasswordPath = '/reset-password';
