import { loadConfig } from '../config';
import type { Database } from '../db/database';
import { createStorage, type FileStorage } from '../lib/storage';
import { seedRecords } from './records';
import type { DentPriceRow, ScratchPriceRow } from '../../src/domain/clients';

/** Body parts an assessor would recognise; `size` scales the price of a dent on it (a roof costs more than a mirror). */
const PARTS: { name: string; code: string; size: number; aluminium: number }[] = [
  { name: 'Bonnet', code: 'bonnet', size: 1.2, aluminium: 30 },
  { name: 'Roof', code: 'roof', size: 1.3, aluminium: 30 },
  { name: 'Boot Lid', code: 'boot_lid', size: 1.0, aluminium: 30 },
  { name: 'Tailgate', code: 'tailgate', size: 1.1, aluminium: 30 },
  { name: 'Front Bumper', code: 'front_bumper', size: 0.9, aluminium: 0 },
  { name: 'Rear Bumper', code: 'rear_bumper', size: 0.9, aluminium: 0 },
  { name: 'Front Valance', code: 'front_valance', size: 0.6, aluminium: 0 },
  { name: 'Rear Valance', code: 'rear_valance', size: 0.6, aluminium: 0 },
  { name: 'Rear Spoiler', code: 'rear_spoiler', size: 0.6, aluminium: 20 },
  { name: 'Left Front Guard', code: 'left_front_guard', size: 0.9, aluminium: 25 },
  { name: 'Right Front Guard', code: 'right_front_guard', size: 0.9, aluminium: 25 },
  { name: 'Left Front Door', code: 'left_front_door', size: 1.0, aluminium: 25 },
  { name: 'Right Front Door', code: 'right_front_door', size: 1.0, aluminium: 25 },
  { name: 'Left Rear Door', code: 'left_rear_door', size: 1.0, aluminium: 25 },
  { name: 'Right Rear Door', code: 'right_rear_door', size: 1.0, aluminium: 25 },
  { name: 'Left Rear Quarter Panel', code: 'left_rear_quarter', size: 1.1, aluminium: 25 },
  { name: 'Right Rear Quarter Panel', code: 'right_rear_quarter', size: 1.1, aluminium: 25 },
  { name: 'Left A Pillar', code: 'left_a_pillar', size: 0.5, aluminium: 20 },
  { name: 'Right A Pillar', code: 'right_a_pillar', size: 0.5, aluminium: 20 },
  { name: 'Left B Pillar', code: 'left_b_pillar', size: 0.5, aluminium: 20 },
  { name: 'Right B Pillar', code: 'right_b_pillar', size: 0.5, aluminium: 20 },
  { name: 'Left C Pillar', code: 'left_c_pillar', size: 0.6, aluminium: 20 },
  { name: 'Right C Pillar', code: 'right_c_pillar', size: 0.6, aluminium: 20 },
  { name: 'Left Sill', code: 'left_sill', size: 0.6, aluminium: 20 },
  { name: 'Right Sill', code: 'right_sill', size: 0.6, aluminium: 20 },
  { name: 'Left Mirror', code: 'left_mirror', size: 0.4, aluminium: 0 },
  { name: 'Right Mirror', code: 'right_mirror', size: 0.4, aluminium: 0 },
  { name: 'Left Roof Rail', code: 'left_roof_rail', size: 0.7, aluminium: 30 },
  { name: 'Right Roof Rail', code: 'right_roof_rail', size: 0.7, aluminium: 30 },
  { name: 'Fuel Flap', code: 'fuel_flap', size: 0.3, aluminium: 0 },
];

const PRODUCTS = [
  { name: 'Paint Protection Treatment', type: 'arch', price: 249 },
  { name: 'Headlight Restoration', type: 'arch', price: 89 },
  { name: 'Windscreen Chip Repair', type: 'arch', price: 79 },
  { name: 'Wheel Alignment', type: 'chasis', price: 129 },
  { name: 'Underbody Rust Treatment', type: 'chasis', price: 349 },
  { name: 'Tyre Rotation', type: 'tire', price: 49 },
  { name: 'Wheel Balance (set of 4)', type: 'tire', price: 69 },
];

/** Each demo client by currency: how its prices relate to AUD, rounding, surcharges, category method, contact block. */
const CLIENT_SETUP: Record<
  string,
  {
    rate: number;
    step: number;
    sc_metallic: number;
    sc_pearl: number;
    sc_p2p: boolean;
    method:
      { calculation_method: 'T'; sc_threshold: number } | { calculation_method: 'W'; weighted: [number, number, number, number, number] };
    products: string[];
    contact: { phone: string; address: string; email: string; abn: string };
  }
> = {
  $: {
    rate: 1,
    step: 5,
    sc_metallic: 10,
    sc_pearl: 15,
    sc_p2p: true,
    method: { calculation_method: 'T', sc_threshold: 3 },
    products: ['Paint Protection Treatment', 'Headlight Restoration', 'Windscreen Chip Repair', 'Wheel Alignment', 'Tyre Rotation'],
    contact: {
      phone: '1300555012',
      address: 'Level 9, 120 Collins St, Melbourne VIC 3000',
      email: 'claims@southerncross.test',
      abn: '53004085616',
    },
  },
  '¥': {
    // Oversize, severe, heavy, medium, light (WEIGHTED_LEVELS).
    rate: 100,
    step: 100,
    sc_metallic: 8,
    sc_pearl: 12,
    sc_p2p: false,
    method: { calculation_method: 'W', weighted: [1, 2, 3, 5, 8] },
    products: ['Paint Protection Treatment', 'Wheel Alignment', 'Tyre Rotation', 'Wheel Balance (set of 4)'],
    contact: {
      phone: '0312345678',
      address: '2-1-1 Marunouchi, Chiyoda-ku, Tokyo 100-0005',
      email: 'fleet@sakura.test',
      abn: '1010001234567',
    },
  },
  '€': {
    rate: 0.6,
    step: 5,
    sc_metallic: 12,
    sc_pearl: 18,
    sc_p2p: true,
    method: { calculation_method: 'T', sc_threshold: 2 },
    products: ['Paint Protection Treatment', 'Headlight Restoration', 'Underbody Rust Treatment', 'Tyre Rotation'],
    contact: { phone: '+49301234567', address: 'Friedrichstraße 100, 10117 Berlin', email: 'claims@eurodrive.test', abn: 'DE123456789' },
  },
};

/** The order of a W client's weighted counts above. */
const WEIGHTED_LEVELS = ['oversize', 'severe', 'heavy', 'medium', 'light'] as const;

/** AUD for a mid-sized panel; PDR rises with severity, conventional and replacement cost more than any PDR. */
const BASE_DENT = { light: 95, medium: 160, heavy: 260, severe: 420, oversize: 650, p2p: 180, conventional: 720, replacement: 1450 };
const BASE_SCRATCH = { spot: 85, paint: 340, conventional: 560 };
/** AUD for one tyre: a puncture repair, a new mid-range tyre fitted and balanced. */
const BASE_TYRE = { repair: 45, replace: 210 };

const priced = (aud: number, size: number, rate: number, step: number) => Math.max(step, Math.round((aud * size * rate) / step) * step);

export function dentRow(part: (typeof PARTS)[number], rate: number, step: number): DentPriceRow {
  const p = (k: keyof typeof BASE_DENT) => priced(BASE_DENT[k], part.size, rate, step);
  return {
    light: p('light'),
    medium: p('medium'),
    heavy: p('heavy'),
    severe: p('severe'),
    oversize: p('oversize'),
    p2p: p('p2p'),
    aluminium: part.aluminium,
    conventional: p('conventional'),
    replacement: p('replacement'),
  };
}
export function scratchRow(part: (typeof PARTS)[number], rate: number, step: number): ScratchPriceRow {
  const p = (k: keyof typeof BASE_SCRATCH) => priced(BASE_SCRATCH[k], part.size, rate, step);
  return { spot: p('spot'), paint: p('paint'), conventional: p('conventional') };
}

/** Panels per car view: [label, car panel code, vehicle type]; the roof has large and extra-large variants. */
const PANELS: Record<string, [string, string, 'D' | 'L' | 'XL'][]> = {
  front: [
    ['Bonnet', 'bonnet', 'D'],
    ['Front Bumper', 'front_bumper', 'D'],
    ['Front Valance', 'front_valance', 'D'],
    ['Left Front Guard', 'left_front_guard', 'D'],
    ['Right Front Guard', 'right_front_guard', 'D'],
  ],
  rear: [
    ['Boot Lid', 'boot_lid', 'D'],
    ['Tailgate', 'tailgate', 'D'],
    ['Rear Bumper', 'rear_bumper', 'D'],
    ['Rear Valance', 'rear_valance', 'D'],
    ['Rear Spoiler', 'rear_spoiler', 'D'],
  ],
  left: [
    ['Left Front Guard', 'left_front_guard', 'D'],
    ['Left Front Door', 'left_front_door', 'D'],
    ['Left Rear Door', 'left_rear_door', 'D'],
    ['Left Rear Quarter Panel', 'left_rear_quarter', 'D'],
    ['Left A Pillar', 'left_a_pillar', 'D'],
    ['Left B Pillar', 'left_b_pillar', 'D'],
    ['Left C Pillar', 'left_c_pillar', 'D'],
    ['Left Sill', 'left_sill', 'D'],
    ['Left Mirror', 'left_mirror', 'D'],
  ],
  right: [
    ['Right Front Guard', 'right_front_guard', 'D'],
    ['Right Front Door', 'right_front_door', 'D'],
    ['Right Rear Door', 'right_rear_door', 'D'],
    ['Right Rear Quarter Panel', 'right_rear_quarter', 'D'],
    ['Right A Pillar', 'right_a_pillar', 'D'],
    ['Right B Pillar', 'right_b_pillar', 'D'],
    ['Right C Pillar', 'right_c_pillar', 'D'],
    ['Right Sill', 'right_sill', 'D'],
    ['Right Mirror', 'right_mirror', 'D'],
    ['Fuel Flap', 'fuel_flap', 'D'],
  ],
  top: [
    ['Roof', 'roof', 'D'],
    ['Roof', 'roof', 'L'],
    ['Roof', 'roof', 'XL'],
    ['Left Roof Rail', 'left_roof_rail', 'D'],
    ['Right Roof Rail', 'right_roof_rail', 'D'],
  ],
};
const TYPE_NAME = { D: '', L: ' (Large)', XL: ' (Extra Large)' } as const;

// The default e-mail header greets ('Hello,'), so a template starts with its message; every {{name}} is a merge field
// (src/domain/scan-mail.ts) the mail fills from the scan.
const TEMPLATES = [
  {
    template_name: 'Quote ready',
    template_body:
      '<p>The repair quote for your vehicle <strong>{{registration}}</strong> is ready. ' +
      'It lists each damaged panel with its repair and price, including GST.</p>' +
      '<p>Questions? Reply to this e-mail or call {{agent_name}} on {{agent_phone}}.</p>',
  },
  {
    template_name: 'Scan report',
    template_body:
      '<p>Thank you for driving through our scanner at {{location}} on {{scan_date}}.</p>' +
      '<p>Here is what the scanner found on <strong>{{registration}}</strong>:</p>' +
      '<ul><li>Dents found: {{dent_count}}</li><li>Scratches found: {{scratch_count}}</li></ul><p>An assessor will confirm the findings before any repair.</p>',
  },
];

/**
 * Demo catalogue: parts, products, the existing clients' pricing (matrices in their own currency),
 * panels on the panel groups front/rear/left/right/top (looked up by name; seeded with the agents' demo data), two e-mail templates.
 */
export async function seedCatalogueDemo(
  db: Database,
  log: (msg: string) => void = console.log,
  storage: FileStorage = createStorage(loadConfig()),
) {
  const records = seedRecords({ db, storage, log: console });
  const parts: { id: number; name: string }[] = [];
  for (const p of PARTS) parts.push({ id: await records.create('parts', { name: p.name, type: 'arch' }), name: p.name });
  const partId = new Map(PARTS.map((p, i) => [p.code, parts[i].id]));
  const products: { id: number; name: string }[] = [];
  for (const p of PRODUCTS) products.push({ id: await records.create('products', p), name: p.name });

  const clients = await db.selectFrom('clients').select(['id', 'currency']).orderBy('id').execute();
  for (const client of clients) {
    const setup = CLIENT_SETUP[client.currency] ?? CLIENT_SETUP.$;
    const m = setup.method;
    await records.change('clients', client.id, {
      sc_metallic: setup.sc_metallic,
      sc_pearl: setup.sc_pearl,
      sc_p2p: setup.sc_p2p,
      tyre_repair: priced(BASE_TYRE.repair, 1, setup.rate, setup.step),
      tyre_replace: priced(BASE_TYRE.replace, 1, setup.rate, setup.step),
      calculation_method: m.calculation_method,
      ...(m.calculation_method === 'T'
        ? { sc_threshold: m.sc_threshold }
        : { weighted_no: Object.fromEntries(WEIGHTED_LEVELS.map((level, i) => [level, m.weighted[i]])) }),
      ...setup.contact,
      products: products.filter((p) => setup.products.includes(p.name)).map((p) => p.id),
      parts: parts.map((p) => p.id),
      prices: {
        dent: Object.fromEntries(PARTS.map((p) => [String(partId.get(p.code)), dentRow(p, setup.rate, setup.step)])),
        scratch: Object.fromEntries(PARTS.map((p) => [String(partId.get(p.code)), scratchRow(p, setup.rate, setup.step)])),
      },
    });
  }

  const groups = await db.selectFrom('panel_groups').select(['id', 'name']).execute();
  let missing = 0;
  for (const [view, panels] of Object.entries(PANELS)) {
    const group = groups.find((g) => g.name.trim().toLowerCase().startsWith(view));
    if (!group) {
      missing++;
      continue;
    }
    const largeCodes = new Set(panels.filter(([, , type]) => type !== 'D').map(([, code]) => code));
    for (const [i, [label, code, type]] of panels.entries())
      await records.create('panels', {
        panel_group_id: group.id,
        name: `${label}${TYPE_NAME[type]}`,
        label,
        type,
        position: i + 1,
        status: true,
        hasLargeVariant: largeCodes.has(code),
        carPanel: code,
        part_id: partId.get(code) ?? null,
      });
  }
  if (missing) log(`demo catalogue: ${missing} of the panel groups front/rear/left/right/top are missing; their panels were skipped`);

  for (const t of TEMPLATES) await records.create('email-templates', { templateName: t.template_name, templateBody: t.template_body });
}
