import sharp from 'sharp';
import { keyOfUrl, type FileStorage } from '../storage';

/**
 * Stored images as the quote PDF draws them: upright, flattened on white and re-encoded as a JPEG no larger than the
 * PDF needs (about 200 dpi at the size it is drawn). jspdf embeds a JPEG as it is, while a PNG with transparency it
 * decodes, splits and recompresses on every document (about 100 ms for a 400 × 120 logo here), and a phone's photo
 * would carry megabytes the page cannot show. Stored files never change content (their names are new on every
 * upload), so the result is kept per file and size for the process.
 */
const LOGO = { width: 480, height: 180 };
/** The vehicle photo is drawn at most 260 × 195 pt. */
const PHOTO = { width: 720, height: 540 };
const KEEP = 100;
const made = new Map<string, Promise<Buffer | null>>();

function pdfImage(storage: FileStorage, url: string | null | undefined, max: { width: number; height: number }, quality: number) {
  const key = keyOfUrl(url);
  if (!key) return Promise.resolve(null);
  const id = `${key} ${max.width}x${max.height}`;
  let image = made.get(id);
  if (!image) {
    image = (async () => {
      const file = await storage.get(key);
      if (!file || !file.contentType.startsWith('image/')) return null;
      return sharp(file.data)
        .rotate()
        .resize({ ...max, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality })
        .toBuffer();
    })().catch(() => null);
    if (made.size >= KEEP) made.delete(made.keys().next().value!);
    made.set(id, image);
  }
  return image;
}

/** The logo of `url` (one of our file URLs) ready for renderQuotePdf, or null when there is none or it cannot be read. */
export const pdfLogo = (storage: FileStorage, url: string | null | undefined): Promise<Buffer | null> => pdfImage(storage, url, LOGO, 90);

/** The quote's vehicle photo ready for renderQuotePdf, or null when there is none or it cannot be read. */
export const pdfPhoto = (storage: FileStorage, url: string | null | undefined): Promise<Buffer | null> => pdfImage(storage, url, PHOTO, 85);
