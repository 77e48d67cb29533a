/**
 * The panel groups' pictures: a sedan from the front, rear, left, right and top, drawn by hand as SVG
 * (800 x 400) so the demo owns its artwork. Rendered to PNG by the demo seed.
 */
const STROKE = '#1f2d3d';
const BODY = '#eef2f6';
const GLASS = '#b9d3e8';
const TYRE = '#2b3440';
const RIM = '#c9d1da';
const LIGHT = '#ffe08a';
const TAIL = '#e0574f';

const frame = (content: string, shadow = true) => `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400" viewBox="0 0 800 400">
  <rect width="800" height="400" fill="#ffffff"/>
  ${shadow ? '<ellipse cx="400" cy="352" rx="330" ry="14" fill="#e3e8ee"/>' : ''}
  <g fill="none" stroke="${STROKE}" stroke-width="5" stroke-linejoin="round" stroke-linecap="round">${content}</g>
</svg>`;

const wheel = (cx: number, cy: number) => `
    <circle cx="${cx}" cy="${cy}" r="50" fill="${TYRE}"/>
    <circle cx="${cx}" cy="${cy}" r="28" fill="${RIM}"/>
    <circle cx="${cx}" cy="${cy}" r="7" fill="${STROKE}"/>`;

/** The car facing left: bonnet on the left, boot on the right. */
const side = frame(`
    <path d="M70 290 L70 246 Q72 222 104 214 L220 196 Q286 128 352 112 L508 110 Q566 114 624 184 L706 198 Q742 206 746 238 L748 290 Z" fill="${BODY}"/>
    <path d="M246 194 Q298 138 356 126 L420 124 L420 194 Z" fill="${GLASS}"/>
    <path d="M438 124 L504 124 Q548 128 592 190 L438 194 Z" fill="${GLASS}"/>
    <path d="M428 120 L428 290"/>
    <path d="M240 200 L240 290"/>
    <path d="M606 196 L612 290"/>
    <path d="M380 214 L404 214"/>
    <path d="M540 214 L564 214"/>
    <path d="M74 232 L98 226" stroke="${STROKE}"/>
    <path d="M72 236 Q76 224 100 220 L112 240 L74 248 Z" fill="${LIGHT}"/>
    <path d="M744 232 L748 262 L726 262 L722 234 Z" fill="${TAIL}"/>
    <path d="M70 270 L748 270" stroke-width="3"/>
    <path d="M118 290 A82 82 0 0 1 282 290" fill="#ffffff"/>
    <path d="M528 290 A82 82 0 0 1 692 290" fill="#ffffff"/>
    ${wheel(200, 296)}
    ${wheel(610, 296)}`);

const mirror = (svg: string) => svg.replace('<g fill="none"', '<g transform="translate(800 0) scale(-1 1)" fill="none"');

const front = frame(`
    <path d="M150 300 L150 222 Q154 196 190 186 L236 178 L282 104 Q292 88 316 86 L484 86 Q508 88 518 104 L564 178 L610 186 Q646 196 650 222 L650 300 Z" fill="${BODY}"/>
    <path d="M252 176 L296 108 Q302 100 318 100 L482 100 Q498 100 504 108 L548 176 Z" fill="${GLASS}"/>
    <path d="M234 180 L206 164 Q196 160 190 168 L196 182 Z" fill="${BODY}"/>
    <path d="M566 180 L594 164 Q604 160 610 168 L604 182 Z" fill="${BODY}"/>
    <path d="M172 214 L262 210 L256 240 L176 244 Z" fill="${LIGHT}"/>
    <path d="M628 214 L538 210 L544 240 L624 244 Z" fill="${LIGHT}"/>
    <path d="M300 214 L500 214 Q508 214 508 222 L504 252 L296 252 L292 222 Q292 214 300 214 Z" fill="#d4dbe3"/>
    <path d="M304 226 L496 226 M302 238 L498 238" stroke-width="3"/>
    <path d="M150 270 L650 270" stroke-width="3"/>
    <path d="M340 278 L460 278 L460 296 L340 296 Z" fill="#ffffff"/>
    <rect x="160" y="300" width="70" height="46" rx="10" fill="${TYRE}"/>
    <rect x="570" y="300" width="70" height="46" rx="10" fill="${TYRE}"/>`);

const rear = frame(`
    <path d="M150 300 L150 222 Q154 196 190 186 L236 178 L282 104 Q292 88 316 86 L484 86 Q508 88 518 104 L564 178 L610 186 Q646 196 650 222 L650 300 Z" fill="${BODY}"/>
    <path d="M262 174 L300 112 Q306 104 320 104 L480 104 Q494 104 500 112 L538 174 Z" fill="${GLASS}"/>
    <path d="M234 180 L206 164 Q196 160 190 168 L196 182 Z" fill="${BODY}"/>
    <path d="M566 180 L594 164 Q604 160 610 168 L604 182 Z" fill="${BODY}"/>
    <path d="M170 208 L270 204 L270 236 L174 240 Z" fill="${TAIL}"/>
    <path d="M630 208 L530 204 L530 236 L626 240 Z" fill="${TAIL}"/>
    <path d="M270 220 L530 220" stroke-width="3"/>
    <path d="M340 232 L460 232 L460 262 L340 262 Z" fill="#ffffff"/>
    <path d="M150 274 L650 274" stroke-width="3"/>
    <circle cx="560" cy="290" r="8" fill="#d4dbe3"/>
    <rect x="160" y="300" width="70" height="46" rx="10" fill="${TYRE}"/>
    <rect x="570" y="300" width="70" height="46" rx="10" fill="${TYRE}"/>`);

/** From above, bonnet to the left. */
const top = frame(
  `
    <rect x="176" y="50" width="64" height="26" rx="10" fill="${TYRE}"/>
    <rect x="556" y="50" width="64" height="26" rx="10" fill="${TYRE}"/>
    <rect x="176" y="304" width="64" height="26" rx="10" fill="${TYRE}"/>
    <rect x="556" y="304" width="64" height="26" rx="10" fill="${TYRE}"/>
    <path d="M292 80 L282 56 Q280 50 288 50 L300 50 Q306 50 308 56 L316 78 Z M292 300 L282 324 Q280 330 288 330 L300 330 Q306 330 308 324 L316 302 Z" fill="${BODY}"/>
    <path d="M90 190 Q90 92 170 74 L640 70 Q716 74 722 120 L726 190 L722 260 Q716 306 640 310 L170 306 Q90 288 90 190 Z" fill="${BODY}"/>
    <path d="M300 96 L360 112 L360 268 L300 284 Q270 190 300 96 Z" fill="${GLASS}"/>
    <path d="M560 104 L600 92 Q622 190 600 288 L560 276 Z" fill="${GLASS}"/>
    <path d="M360 112 L560 104 L560 276 L360 268 Z" fill="#dde4eb"/>
    <path d="M160 118 Q230 122 286 132 M160 262 Q230 258 286 248" stroke-width="3"/>
    <path d="M456 80 L456 104 M456 276 L456 300" stroke-width="3"/>
    <path d="M104 126 Q116 98 150 86 L156 100 Q126 112 116 134 Z M104 254 Q116 282 150 294 L156 280 Q126 268 116 246 Z" fill="${LIGHT}"/>
    <path d="M722 126 L710 126 L714 160 L724 160 Z M722 254 L710 254 L714 220 L724 220 Z" fill="${TAIL}"/>`,
  false,
);

/** Positions 1-5 as the quote screen shows them. */
export const CAR_VIEWS = [
  { name: 'Front', svg: front },
  { name: 'Rear', svg: rear },
  { name: 'Left', svg: side },
  { name: 'Right', svg: mirror(side) },
  { name: 'Top', svg: top },
] as const;
