/** The customer portal's branding colours: plain functions, no zod (the portal's bundle stays light). */

/** the portal's buttons fall back to the primary colour #0C1839 and the text colour #000000. */
export const PORTAL_DEFAULT_PRIMARY = '#0C1839';
export const PORTAL_DEFAULT_TEXT = '#000000';

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
const rgbOf = (hex: string) => {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255);
};
const luminance = (hex: string) => {
  const [r, g, b] = rgbOf(hex).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
/** WCAG contrast ratio of two #rgb / #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/**
 * The portal buttons' colours: the agent's primary_color as background and its text_color as label, each
 * defaulted when blank or unreadable as a colour. The label keeps text_color while it reads on the background (WCAG AA
 * 4.5:1); otherwise white or black, whichever reads better, so the defaults (#000000 on #0C1839) stay legible.
 */
export function portalButtonColors(primary: string | null | undefined, text: string | null | undefined) {
  const background = primary && HEX.test(primary.trim()) ? primary.trim() : PORTAL_DEFAULT_PRIMARY;
  const wanted = text && HEX.test(text.trim()) ? text.trim() : PORTAL_DEFAULT_TEXT;
  if (contrastRatio(background, wanted) >= 4.5) return { background, text: wanted };
  return { background, text: contrastRatio(background, '#ffffff') >= contrastRatio(background, '#000000') ? '#ffffff' : '#000000' };
}
