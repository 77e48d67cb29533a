import sharp from 'sharp';
import { loadConfig } from '../config';
import type { Database } from '../db/database';
import { createStorage, type FileStorage } from '../lib/storage';
import { CAR_VIEWS } from './car-drawings';
import { seedRecords, uploaded } from './records';

/** Every demo agent's customer-portal pincode (the portal's 'Go to Admin' dialog). */
export const DEMO_AGENT_PINCODE = '246810';

/** Three marks, drawn without text (no fonts needed): a scanning arch, harbour waves, a sun. */
const MARKS = [
  (bg: string, fg: string) => `<rect x="8" y="8" width="240" height="240" rx="48" fill="${bg}"/>
    <path d="M58 184 L58 128 A70 70 0 0 1 198 128 L198 184" fill="none" stroke="${fg}" stroke-width="18" stroke-linecap="round"/>
    <path d="M92 176 L106 150 L150 150 L164 176 Z" fill="${fg}"/><path d="M40 194 L216 194" stroke="${fg}" stroke-width="12" stroke-linecap="round"/>`,
  (bg: string, fg: string) => `<circle cx="128" cy="128" r="120" fill="${bg}"/>
    <path d="M56 104 L128 56 L200 104" fill="none" stroke="${fg}" stroke-width="16" stroke-linejoin="round" stroke-linecap="round"/>
    <path d="M48 150 Q68 130 88 150 T128 150 T168 150 T208 150" fill="none" stroke="${fg}" stroke-width="14" stroke-linecap="round"/>
    <path d="M58 190 Q78 170 98 190 T138 190 T178 190 T198 190" fill="none" stroke="${fg}" stroke-width="14" stroke-linecap="round"/>`,
  (bg: string, fg: string) => `<rect x="8" y="8" width="240" height="240" rx="120" fill="${bg}"/>
    <circle cx="128" cy="128" r="44" fill="${fg}"/>
    <g stroke="${fg}" stroke-width="14" stroke-linecap="round">${Array.from({ length: 8 }, (_, i) => {
      const a = (i * Math.PI) / 4;
      const p = (r: number) => `${(128 + r * Math.cos(a)).toFixed(1)} ${(128 + r * Math.sin(a)).toFixed(1)}`;
      return `<path d="M${p(66)} L${p(96)}"/>`;
    }).join('')}</g>`,
];

export const demoLogo = (i: number, primary: string, text: string) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">${MARKS[i % MARKS.length](primary, text === primary ? '#ffffff' : text)}</svg>`,
    ),
  )
    .png()
    .toBuffer();

const BLURBS = [
  '<p><strong>Drive through, get a quote.</strong> Our arch scanners map every dent and scratch in under a minute.</p><p>Open 7 days, 7am to 7pm.</p>',
  '<p>Fleet and insurance scans on the harbour side of Sydney and in Canberra. <em>No appointment needed.</em></p>',
  '<p>Queensland and Top End fleet checks, with results sent straight to your insurer.</p><ul><li>Hail damage</li><li>Tyre tread</li><li>Underbody</li></ul>',
];

/**
 * Demo data for the agent side: logos, pincodes and blurbs for the existing agents, webhooks for the
 * first one, and the five panel groups (front, rear, left, right, top) with the project's own car drawings.
 * Agents and panel groups are written through their resources' service, files as uploads.
 */
export async function seedAgentsDemo(db: Database, storage: FileStorage = createStorage(loadConfig())) {
  const records = seedRecords({ db, storage, log: console });
  const agents = await db.selectFrom('agents').select(['id', 'name', 'primary_color', 'text_color']).orderBy('id').execute();
  for (const [i, agent] of agents.entries())
    await records.change('agents', agent.id, {
      logo: uploaded(await demoLogo(i, agent.primary_color, agent.text_color), 'logo.png'),
      pincode: DEMO_AGENT_PINCODE,
      blurb: BLURBS[i % BLURBS.length],
      language: i === 1 ? 'ja' : 'en',
    });
  // Placeholder endpoints: delivery refuses what does not resolve to a public address, so nothing is sent.
  if (agents[0]) {
    await records.create('webhooks', {
      agent_id: agents[0].id,
      endpoint: 'https://hooks.melbourneautoscan.test/scans',
      description: 'Workshop job board: new and updated scans',
      events: ['scan.created', 'scan.updated'],
    });
    await records.create('webhooks', {
      agent_id: agents[0].id,
      endpoint: 'https://crm.melbourneautoscan.test/api/quotes',
      description: 'CRM: generated quotes',
      events: ['quote.generated'],
    });
  }
  for (const [i, view] of CAR_VIEWS.entries())
    await records.create('panelgroups', {
      name: view.name,
      image: uploaded(await sharp(Buffer.from(view.svg)).png().toBuffer(), `${view.name}.png`),
      position: i + 1,
    });
}
