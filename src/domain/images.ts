/** Stored images are at most 5 MB: the server refuses more, and the screens refuse a larger file before sending it. */
export const IMAGE_MAX_MB = 5;
export const IMAGE_MAX_BYTES = IMAGE_MAX_MB * 1024 * 1024;

/**
 * Sized copies of stored images: the server keeps a WebP copy of every stored PNG, JPEG or WebP at each of these
 * widths (never wider than the original) and serves it at the original's URL with `?w=<width>`; the browser asks for
 * the width it shows through `srcset`.
 */
export const IMAGE_WIDTHS = [320, 640, 1280] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** A stored raster image's URL (`/api/user/files/<name>.png|jpg|webp`, optionally absolute): only those have copies. */
const SIZABLE_URL = /^(?:https?:\/\/[^/]+)?\/api\/user\/files\/[0-9a-f]{32}\.(?:png|jpg|webp)$/;
export const hasSizedCopies = (url: string | null | undefined): url is string => !!url && SIZABLE_URL.test(url);

/** The URL of a stored image's copy `width` pixels wide; any other URL as it is. */
export const sizedImageUrl = (url: string, width: ImageWidth) => (hasSizedCopies(url) ? `${url}?w=${width}` : url);

/**
 * The `src`, `srcSet` and `sizes` of an `<img>` showing `url` at `sizes` (a CSS `sizes` value, e.g. '100px' or
 * '(max-width: 600px) 100vw, 320px'): the browser picks the smallest copy that fills the box at its pixel density.
 * `src` is the original, for a browser without `srcset` or WebP.
 */
export function imageSources(url: string, sizes: string): { src: string; srcSet?: string; sizes?: string } {
  if (!hasSizedCopies(url)) return { src: url };
  return { src: url, srcSet: IMAGE_WIDTHS.map((w) => `${sizedImageUrl(url, w)} ${w}w`).join(', '), sizes };
}

/**
 * The image viewer's sources: the 1280 px copy on a standard screen, the original (the largest) on a denser one, so a
 * full-size look costs a fraction of the original's bytes where the screen cannot show more.
 */
export function viewerSources(url: string): { src: string; srcSet?: string } {
  if (!hasSizedCopies(url)) return { src: url };
  return { src: url, srcSet: `${sizedImageUrl(url, 1280)} 1x, ${url} 2x` };
}
