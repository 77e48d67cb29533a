import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { DamageLevel, DamageType } from '../../src/domain/scan-codes';
import type { Rng } from './random';
import type { TyreWear } from './index';

/**
 * The scanner's pictures, drawn as SVG and turned into PNG by sharp (no text, so no fonts are needed):
 * damage close-ups (the panel's paint with the dent or scratch and its detection box), tyre tread close-ups,
 * tread depth charts, the vehicle seen from the side (meta thumbnail and source image) and a video thumbnail.
 */

const png = (svg: string) => sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: false }).toBuffer();
const svgDoc = (w: number, h: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`;

/** Mixes a hex colour towards white (amount > 0) or black (amount < 0). */
export function shade(hex: string, amount: number) {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c: number) => Math.round(amount >= 0 ? c + (255 - c) * amount : c * (1 + amount));
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(mix);
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/** The scan page's chip colours: dents #B54054, scratches #334A8F. */
const BOX = { dents: '#B54054', scratchs: '#334A8F' } as const;
const DENT_RADIUS: Record<DamageLevel, number> = { light: 14, medium: 22, heavy: 32, severe: 44, oversize: 60 };
const SCRATCH_LENGTH: Record<DamageLevel, number> = { light: 60, medium: 110, heavy: 160, severe: 210, oversize: 250 };

/** A close-up of one detection on a panel of the car's colour (320 x 240). */
export function damageImage(opts: { hex: string; type: DamageType; level: DamageLevel; rng: Rng }): Promise<Buffer> {
  const { hex, type, level, rng } = opts;
  const W = 320;
  const H = 240;
  const cx = 120 + rng.int(0, 80);
  const cy = 90 + rng.int(0, 60);
  const paint = `<defs>
      <linearGradient id="p" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${shade(hex, 0.28)}"/><stop offset="0.55" stop-color="${hex}"/><stop offset="1" stop-color="${shade(hex, -0.35)}"/></linearGradient>
      <linearGradient id="r" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset="0.5" stop-color="#fff" stop-opacity="0.35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient>
      <radialGradient id="d"><stop offset="0" stop-color="${shade(hex, -0.45)}"/><stop offset="0.7" stop-color="${shade(hex, -0.15)}"/><stop offset="0.92" stop-color="${shade(hex, 0.45)}"/><stop offset="1" stop-color="${hex}" stop-opacity="0"/></radialGradient>
    </defs>
    <rect width="${W}" height="${H}" fill="url(#p)"/>
    <path d="M-20 ${40 + rng.int(0, 40)} Q160 ${rng.int(0, 40)} 340 ${60 + rng.int(0, 40)} L340 ${90 + rng.int(0, 30)} Q160 ${50 + rng.int(0, 30)} -20 ${80 + rng.int(0, 40)} Z" fill="url(#r)"/>`;
  let mark: string;
  let box: [number, number, number, number];
  if (type === 'dents') {
    const r = DENT_RADIUS[level];
    const ry = Math.round(r * (0.65 + rng() * 0.3));
    mark = `<ellipse cx="${cx}" cy="${cy}" rx="${r}" ry="${ry}" fill="url(#d)"/>
      <ellipse cx="${cx - r * 0.25}" cy="${cy - ry * 0.35}" rx="${r * 0.35}" ry="${ry * 0.18}" fill="#fff" opacity="0.35"/>`;
    box = [cx - r - 8, cy - ry - 8, 2 * r + 16, 2 * ry + 16];
  } else {
    const len = SCRATCH_LENGTH[level];
    const angle = (rng() - 0.5) * 0.8;
    const x1 = cx - (len / 2) * Math.cos(angle);
    const y1 = cy - (len / 2) * Math.sin(angle);
    const pts = Array.from({ length: 9 }, (_, i) => {
      const t = i / 8;
      return `${(x1 + t * len * Math.cos(angle) + (rng() - 0.5) * 4).toFixed(1)},${(y1 + t * len * Math.sin(angle) + (rng() - 0.5) * 5).toFixed(1)}`;
    }).join(' ');
    const width = { light: 1.5, medium: 2.5, heavy: 3.5, severe: 4.5, oversize: 6 }[level];
    mark = `<polyline points="${pts}" fill="none" stroke="${shade(hex, -0.5)}" stroke-width="${width + 2}" stroke-linecap="round" opacity="0.5"/>
      <polyline points="${pts}" fill="none" stroke="#e9e6dc" stroke-width="${width}" stroke-linecap="round"/>`;
    const xs = [x1, x1 + len * Math.cos(angle)];
    const ys = [y1, y1 + len * Math.sin(angle)];
    box = [Math.min(...xs) - 10, Math.min(...ys) - 12, Math.abs(xs[1] - xs[0]) + 20, Math.abs(ys[1] - ys[0]) + 24];
  }
  const [bx, by, bw, bh] = box.map((v) => Math.round(v));
  const c = BOX[type];
  const corner = 12;
  const corners = `M${bx} ${by + corner} V${by} H${bx + corner} M${bx + bw - corner} ${by} H${bx + bw} V${by + corner} M${bx + bw} ${by + bh - corner} V${by + bh} H${bx + bw - corner} M${bx + corner} ${by + bh} H${bx} V${by + bh - corner}`;
  return png(
    svgDoc(
      W,
      H,
      `${paint}${mark}<rect x="${bx}" y="${by}" width="${bw}" height="${bh}" fill="none" stroke="${c}" stroke-width="1.5" stroke-dasharray="5 4"/>
    <path d="${corners}" fill="none" stroke="${c}" stroke-width="4"/>`,
    ),
  );
}

/** A tread close-up (320 x 200): four grooves and sipes, shallower and shinier when worn. */
export function tyreImage(wear: TyreWear): Promise<Buffer> {
  const W = 320;
  const H = 200;
  const depth = wear === 'worn' ? 0.35 : wear === 'even' ? 1 : 0.7;
  const grooves = [64, 128, 192, 256]
    .map((x) => `<rect x="${x - 7}" y="0" width="14" height="${H}" fill="#0b0b0c" opacity="${0.4 + 0.6 * depth}"/>`)
    .join('');
  const sipes = Array.from({ length: 12 }, (_, i) => {
    const y = 8 + i * 16;
    return [0, 71, 135, 199, 263]
      .map((x) => `<path d="M${x + 6} ${y} l${52} ${8}" stroke="#111" stroke-width="3" opacity="${0.3 + 0.5 * depth}"/>`)
      .join('');
  }).join('');
  const worn =
    wear === 'edges'
      ? '<rect x="0" y="0" width="50" height="200" fill="#777" opacity="0.25"/><rect x="270" y="0" width="50" height="200" fill="#777" opacity="0.25"/>'
      : wear === 'center'
        ? '<rect x="110" y="0" width="100" height="200" fill="#777" opacity="0.25"/>'
        : wear === 'inner'
          ? '<rect x="0" y="0" width="90" height="200" fill="#777" opacity="0.3"/>'
          : wear === 'outer'
            ? '<rect x="230" y="0" width="90" height="200" fill="#777" opacity="0.3"/>'
            : '';
  return png(
    svgDoc(
      W,
      H,
      `<defs><linearGradient id="t" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#1c1c1f"/><stop offset="0.5" stop-color="#3a3a3f"/><stop offset="1" stop-color="#1c1c1f"/></linearGradient></defs>
    <rect width="${W}" height="${H}" fill="url(#t)"/>${sipes}${grooves}${worn}`,
    ),
  );
}

/** The tread depth profile as a chart (320 x 160, 0 to 10 mm), the lowest point marked. */
export function tyreChart(depths: number[]): Promise<Buffer> {
  const W = 320;
  const H = 160;
  const pad = 16;
  const x = (i: number) => pad + (i / Math.max(1, depths.length - 1)) * (W - 2 * pad);
  const y = (d: number) => H - pad - (Math.min(d, 10) / 10) * (H - 2 * pad);
  const line = depths.map((d, i) => `${x(i).toFixed(1)},${y(d).toFixed(1)}`).join(' ');
  const min = depths.indexOf(Math.min(...depths));
  const grid = [2, 4, 6, 8, 10].map((d) => `<line x1="${pad}" x2="${W - pad}" y1="${y(d)}" y2="${y(d)}" stroke="#e3e6ea"/>`).join('');
  const legal = `<line x1="${pad}" x2="${W - pad}" y1="${y(1.5)}" y2="${y(1.5)}" stroke="#c1484e" stroke-dasharray="6 4"/>`;
  return png(
    svgDoc(
      W,
      H,
      `<rect width="${W}" height="${H}" fill="#fff"/>${grid}${legal}
    <polygon points="${pad},${H - pad} ${line} ${W - pad},${H - pad}" fill="#0c1839" opacity="0.15"/>
    <polyline points="${line}" fill="none" stroke="#0c1839" stroke-width="2.5"/>
    <circle cx="${x(min)}" cy="${y(depths[min])}" r="5" fill="#c1484e"/>
    <line x1="${pad}" x2="${W - pad}" y1="${H - pad}" y2="${H - pad}" stroke="#6b7178"/><line x1="${pad}" x2="${pad}" y1="${pad}" y2="${H - pad}" stroke="#6b7178"/>`,
    ),
  );
}

/** Body outlines (side view, 320 x 180 units) per body type. */
const BODY: Record<string, string> = {
  Sedan: 'M22 122 L30 100 L92 92 L122 66 L206 64 L240 92 L296 98 L302 122 Z',
  Hatchback: 'M26 122 L32 100 L90 92 L122 64 L222 62 L256 96 L290 102 L294 122 Z',
  SUV: 'M22 124 L26 92 L80 86 L108 54 L250 52 L276 86 L298 92 L300 124 Z',
  Ute: 'M20 124 L24 94 L84 88 L110 58 L176 56 L190 88 L300 88 L302 124 Z',
};
const WINDOWS: Record<string, string> = {
  Sedan: 'M104 90 L126 70 L160 69 L160 90 Z M166 90 L166 69 L202 69 L226 90 Z',
  Hatchback: 'M102 90 L126 68 L168 67 L168 90 Z M174 90 L174 67 L216 66 L242 92 Z',
  SUV: 'M92 86 L114 58 L170 57 L170 86 Z M176 86 L176 57 L244 56 L264 86 Z',
  Ute: 'M96 88 L116 62 L146 61 L146 88 Z M152 88 L152 61 L172 60 L182 88 Z',
};

/** The vehicle from the side in its colour: the scan's meta thumbnail (320 x 180) or source image (scale 3). */
export function vehicleImage(opts: { hex: string; bodyType: string; scale?: number }): Promise<Buffer> {
  const s = opts.scale ?? 1;
  const body = BODY[opts.bodyType] ?? BODY.Sedan;
  const windows = WINDOWS[opts.bodyType] ?? WINDOWS.Sedan;
  const wheel = (cx: number) => `<circle cx="${cx}" cy="124" r="19" fill="#151517"/><circle cx="${cx}" cy="124" r="9" fill="#9aa1a8"/>`;
  return png(
    svgDoc(
      320 * s,
      180 * s,
      `<g transform="scale(${s})">
    <defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#dfe6ee"/><stop offset="1" stop-color="#f5f7fa"/></linearGradient>
      <linearGradient id="b" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${shade(opts.hex, 0.25)}"/><stop offset="1" stop-color="${shade(opts.hex, -0.3)}"/></linearGradient></defs>
    <rect width="320" height="180" fill="url(#bg)"/><rect y="140" width="320" height="40" fill="#c9d0d8"/>
    <ellipse cx="162" cy="142" rx="150" ry="8" fill="#000" opacity="0.18"/>
    <path d="${body}" fill="url(#b)" stroke="${shade(opts.hex, -0.5)}" stroke-width="1.5" stroke-linejoin="round"/>
    <path d="${windows}" fill="#2b3440" opacity="0.85"/>
    <path d="M30 106 L296 106" stroke="${shade(opts.hex, -0.35)}" stroke-width="1"/>
    ${wheel(78)}${wheel(246)}</g>`,
    ),
  );
}

/** The video's first frame as its thumbnail: the car under the scanning arch (320 x 180). */
export function videoThumbnail(): Promise<Buffer> {
  return png(
    svgDoc(
      320,
      180,
      `<rect width="320" height="180" fill="#1f2a36"/><rect y="140" width="320" height="40" fill="#3a4654"/>
    <rect x="100" y="100" width="120" height="30" fill="#b8c2cc"/><rect x="125" y="80" width="65" height="24" fill="#b8c2cc"/>
    <circle cx="125" cy="132" r="11" fill="#111"/><circle cx="195" cy="132" r="11" fill="#111"/>
    <path d="M130 145 V40 H190 V145" fill="none" stroke="#0c1839" stroke-width="10"/><path d="M160 46 V140" stroke="#50c8ff" stroke-width="3"/>
    <circle cx="160" cy="90" r="26" fill="#000" opacity="0.45"/><path d="M152 77 L152 103 L174 90 Z" fill="#fff"/>`,
    ),
  );
}

/** The short sample video every generated arch scan carries (WebM, VP8, 3 s; see make-sample-video.ts). */
export const SAMPLE_VIDEO_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets', 'sample-scan.webm');
let sample: Buffer | null = null;
export const sampleVideo = () => (sample ??= fs.readFileSync(SAMPLE_VIDEO_PATH));
