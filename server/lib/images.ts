import { messages } from '../../src/domain/messages';
import sanitizeHtml from 'sanitize-html';
import sharp, { type Metadata } from 'sharp';
import { ValidationError } from '../errors';
import { FILE_TYPES, type FileStorage, isSizableKey, sizedKey } from './storage';
import { IMAGE_MAX_BYTES, IMAGE_MAX_MB, IMAGE_WIDTHS } from '../../src/domain/images';

export { IMAGE_MAX_BYTES };

/** Pixels capped so a tiny file cannot declare a huge bitmap (a decompression bomb); bytes at most IMAGE_MAX_BYTES. */
export const IMAGE_MAX_PIXELS = 25_000_000;

/** A file as the multipart reader hands it over: the bytes, and whether it was cut at the size limit. */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
  truncated: boolean;
}
export const isUploadedFile = (v: unknown): v is UploadedFile =>
  typeof v === 'object' && v !== null && Buffer.isBuffer((v as UploadedFile).data) && typeof (v as UploadedFile).truncated === 'boolean';

export interface CheckedImage {
  data: Buffer;
  contentType: string;
}

const startsWith = (data: Buffer, bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);

/** The type the bytes say they are (never the client's name or content type). */
function sniff(data: Buffer): keyof typeof FILE_TYPES | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpg';
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  // An SVG is text whose first element, after an XML declaration, a doctype and comments, is <svg.
  const head = data
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head))
    return 'svg';
  return null;
}

const SVG_TAGS = [
  'svg',
  'g',
  'defs',
  'title',
  'desc',
  'symbol',
  'use',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'pattern',
  'marker',
];
const SVG_ATTRIBUTES = [
  'id',
  'class',
  'xmlns',
  'xmlns:xlink',
  'version',
  'viewBox',
  'preserveAspectRatio',
  'width',
  'height',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'd',
  'points',
  'pathLength',
  'transform',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-miterlimit',
  'opacity',
  'color',
  'clip-path',
  'clip-rule',
  'mask',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'dx',
  'dy',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'patternUnits',
  'patternContentUnits',
  'patternTransform',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'markerWidth',
  'markerHeight',
  'markerUnits',
  'refX',
  'refY',
  'orient',
  'marker-start',
  'marker-mid',
  'marker-end',
  'vector-effect',
  'href',
  'xlink:href',
];
/** Only references inside the drawing: href="#id", url(#id). */
const externalReference = (value: string) => /url\(\s*['"]?\s*(?!#)/i.test(value);

/**
 * The SVG allowlist: shapes, text, gradients and clipping; no script, foreignObject, style, event handler,
 * animation or reference outside the file. Returns null when nothing drawable is left.
 */
export function sanitizeSvg(text: string): string | null {
  // Entities (billion laughs, external entities) have no place in an uploaded drawing.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return null;
  const clean = sanitizeHtml(text, {
    allowedTags: SVG_TAGS,
    allowedAttributes: { '*': SVG_ATTRIBUTES },
    allowedSchemes: [],
    allowedSchemesAppliedToAttributes: ['href', 'xlink:href'],
    allowProtocolRelative: false,
    nonTextTags: ['script', 'style', 'foreignObject', 'textarea', 'noscript'],
    parser: { xmlMode: true },
    transformTags: {
      '*': (tagName, attribs) => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(attribs)) {
          if ((name === 'href' || name === 'xlink:href') && !value.startsWith('#')) continue;
          if (externalReference(value)) continue;
          kept[name] = value;
        }
        return { tagName, attribs: kept };
      },
    },
  }).trim();
  return /^<svg[\s>]/.test(clean) ? clean : null;
}

/**
 * Checks an upload for an image field: the type by its magic bytes (PNG, JPEG, WebP; SVG after sanitising, except for a
 * `photo`: a vehicle's pictures are photographs, shown and sized as such), the size, and the pixel count read from the
 * header without decoding. Refuses with 422 on `field`.
 */
export async function checkImage(file: unknown, field: string, label: string, opts: { photo?: boolean } = {}): Promise<CheckedImage> {
  const refuse = (message: string) => new ValidationError({ [field]: message });
  if (!isUploadedFile(file)) throw refuse(messages.imageFile(label));
  if (file.truncated || file.data.length > IMAGE_MAX_BYTES) throw refuse(messages.fileSize(label, IMAGE_MAX_MB));
  const type = sniff(file.data);
  if (!type || (opts.photo && type === 'svg')) throw refuse((opts.photo ? messages.photoType : messages.imageType)(label));
  if (type === 'svg') {
    const clean = sanitizeSvg(file.data.toString('utf8'));
    if (!clean) throw refuse(messages.imageInvalid(label));
    return { data: Buffer.from(clean, 'utf8'), contentType: FILE_TYPES.svg };
  }
  let meta: Metadata;
  try {
    // Only the header is read; the limit also stops sharp itself from accepting a bomb.
    meta = await sharp(file.data, { limitInputPixels: IMAGE_MAX_PIXELS }).metadata();
  } catch (e) {
    if (/pixel limit/i.test((e as Error).message)) throw refuse(messages.imagePixels(label, IMAGE_MAX_PIXELS / 1_000_000));
    throw refuse(messages.imageInvalid(label));
  }
  const expected = { png: 'png', jpg: 'jpeg', webp: 'webp' }[type];
  if (meta.format !== expected || !meta.width || !meta.height) throw refuse(messages.imageInvalid(label));
  const pixels = meta.width * (meta.pageHeight ?? meta.height) * (meta.pages ?? 1);
  if (pixels > IMAGE_MAX_PIXELS) throw refuse(messages.imagePixels(label, IMAGE_MAX_PIXELS / 1_000_000));
  if (meta.exif || meta.xmp || meta.iptc) {
    // A photo can carry where and with what it was taken (GPS position, camera serial): it is stored without its
    // metadata, re-encoded, and turned upright as its orientation tag said (sharp writes no metadata unless asked).
    const animated = (meta.pages ?? 1) > 1;
    let image = sharp(file.data, { limitInputPixels: IMAGE_MAX_PIXELS, animated });
    if (!animated) image = image.rotate();
    const encoded = type === 'jpg' ? image.jpeg({ quality: 92 }) : type === 'png' ? image.png() : image.webp({ quality: 92 });
    return { data: await encoded.toBuffer(), contentType: FILE_TYPES[type] };
  }
  return { data: file.data, contentType: FILE_TYPES[type] };
}

/** WebP quality of the sized copies: they are for looking at on a screen, the original stays for anything else. */
const COPY_QUALITY = 75;

/** A WebP copy of a raster image `width` pixels wide (never wider than the original), upright, without metadata. */
export async function sizedCopy(data: Buffer, width: number): Promise<Buffer> {
  return sharp(data, { limitInputPixels: IMAGE_MAX_PIXELS })
    .rotate()
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: COPY_QUALITY })
    .toBuffer();
}

/** Makes and stores every sized copy (IMAGE_WIDTHS) of the stored image `key`; SVGs and other files have none. */
export async function storeSizedCopies(storage: FileStorage, key: string, data: Buffer) {
  if (!isSizableKey(key)) return;
  for (const width of IMAGE_WIDTHS) await storage.putCopy(sizedKey(key, width), await sizedCopy(data, width));
}

/** Stores a checked image with its sized copies and returns its key; nothing stays when a copy cannot be made. */
export async function putImage(storage: FileStorage, image: CheckedImage): Promise<string> {
  const key = await storage.put(image.data, image.contentType);
  try {
    await storeSizedCopies(storage, key, image.data);
  } catch (e) {
    await storage.delete(key).catch(() => {});
    throw e;
  }
  return key;
}

/**
 * The copy of the stored image `key` `width` pixels wide, or null when the image is missing. An image stored before
 * copies were made (or by the demo seed) gets this copy now, stored for every later request.
 */
export async function getSizedCopy(storage: FileStorage, key: string, width: number): Promise<Buffer | null> {
  const copy = await storage.get(sizedKey(key, width));
  if (copy) return copy.data;
  const original = await storage.get(key);
  if (!original) return null;
  const data = await sizedCopy(original.data, width);
  await storage.putCopy(sizedKey(key, width), data);
  return data;
}
