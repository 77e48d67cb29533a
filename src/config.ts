/** Product-wide settings read once from the build environment. */
export const API_URL = (import.meta.env.VITE_API_URL ?? '/api').replace(/\/+$/, '');
export const SUPPORT_EMAIL = import.meta.env.VITE_SUPPORT_EMAIL ?? '';
export const DEFAULT_PRIMARY_COLOR = '#0C1839';
/** Layout and timing constants the screens share. */
export const SEARCH_DEBOUNCE_MS = 500;
export const TOAST_DURATION_MS = 10_000;
export const SIDEBAR_WIDTH = 280;
export const NOT_FOUND_REDIRECT_MS = 300;
export const PER_PAGE_OPTIONS = [10, 25, 50, 100];
