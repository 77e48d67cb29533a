import zlib from 'node:zlib';
import sharp from 'sharp';

/** A real PNG of the given size. */
export const pngImage = (width = 40, height = 20, color = '#c0392b') =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

export const jpegImage = () =>
  sharp({ create: { width: 30, height: 30, channels: 3, background: '#2980b9' } })
    .jpeg()
    .toBuffer();
export const webpImage = () =>
  sharp({ create: { width: 30, height: 30, channels: 3, background: '#27ae60' } })
    .webp()
    .toBuffer();

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf: Buffer) => {
  let crc = 0xffffffff;
  for (const b of buf) crc = crcTable[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

/**
 * A decompression bomb: a valid ~110 KB PNG declaring 30000 x 30000 one-bit pixels (900 megapixels),
 * whose zero rows deflate to almost nothing.
 */
export function bombPng(width = 30000, height = 30000) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = zlib.deflateSync(Buffer.alloc(height * (1 + Math.ceil(width / 8))), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const hostileSvg = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 50" onload="alert('onload')">
  <script>alert('script')</script>
  <foreignObject width="100" height="50"><div xmlns="http://www.w3.org/1999/xhtml" onclick="alert(1)">html inside</div></foreignObject>
  <a href="javascript:alert('href')"><rect x="5" y="5" width="40" height="20" fill="#0c1839" onclick="alert('click')"/></a>
  <image href="https://evil.example/track.png" width="10" height="10"/>
  <use xlink:href="https://evil.example/sprite.svg#icon"/>
  <circle cx="70" cy="25" r="10" fill="url(https://evil.example/paint)" stroke="#333"/>
  <linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>
  <path d="M10 40 L90 40" stroke="url(#g)"/>
</svg>`;
