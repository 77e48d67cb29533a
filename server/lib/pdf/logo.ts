import sharp from 'sharp';
import { keyOfUrl, type FileStorage } from '../storage';

/**
 * An agent's logo as the quote PDF draws it: flattened on white and re-encoded as a JPEG of at most 480 × 180 px (the
 * PDF draws it at most 160 × 60 pt, so about 200 dpi). jspdf embeds a JPEG as it is, while a PNG with transparency it
 * decodes, splits and recompresses on every document (about 100 ms for a 400 × 120 logo here). Stored files never
 * change content (their names are new on every upload), so the result is kept per file for the process.
 */
const MAX = { width: 480, height: 180 };
const KEEP = 100;
const made = new Map<string, Promise<Buffer | null>>();

/** The logo of `url` (one of our file URLs) ready for renderQuotePdf, or null when there is none or it cannot be read. */
export function pdfLogo(storage: FileStorage, url: string | null | undefined): Promise<Buffer | null> {
  const key = keyOfUrl(url);
  if (!key) return Promise.resolve(null);
  let logo = made.get(key);
  if (!logo) {
    logo = (async () => {
      const file = await storage.get(key);
      if (!file || !file.contentType.startsWith('image/')) return null;
      return sharp(file.data)
        .resize({ ...MAX, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 90 })
        .toBuffer();
    })().catch(() => null);
    if (made.size >= KEEP) made.delete(made.keys().next().value!);
    made.set(key, logo);
  }
  return logo;
}
