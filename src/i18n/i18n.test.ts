import { describe, expect, it } from 'vitest';
import { isGroup, type MenuNode } from '../domain/access';
import { INVOICE_LABELS } from '../domain/invoice-labels';
import { REPORT_LABELS } from '../domain/report-labels';
import { WEBHOOK_EVENTS } from '../domain/webhooks';
import { MENU } from '../resources/definitions';
import { loadResources } from '../resources';
import { en } from './english';
import { ja } from './ja';

type Catalogue = { [key: string]: string | Catalogue };

function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else flatten(value, path).forEach((v, k) => out.set(k, v));
  }
  return out;
}

const english = flatten(en as Catalogue);
const japanese = flatten(ja as Catalogue);
const menuLabels = (nodes: MenuNode[]): string[] => nodes.flatMap((n) => [n.label, ...(isGroup(n) ? menuLabels(n.children) : [])]);

/** Every map of the five damage levels in a catalogue's app texts, by its key (the form fields' labels name counts). */
function levelWords(flat: Map<string, string>): Map<string, string[]> {
  const levels = ['light', 'medium', 'heavy', 'severe', 'oversize'];
  const maps = new Map<string, string[]>();
  for (const key of flat.keys()) {
    const parent = key.slice(0, key.lastIndexOf('.'));
    if (key.startsWith('app.') && key.endsWith('.medium') && !maps.has(parent) && levels.every((l) => flat.has(`${parent}.${l}`)))
      maps.set(
        parent,
        levels.map((l) => flat.get(`${parent}.${l}`)!),
      );
  }
  return maps;
}

describe('catalogues', () => {
  it('name the damage levels with the same words everywhere, the estimate included', () => {
    for (const [flat, estimate] of [
      [english, INVOICE_LABELS.en.categories],
      [japanese, INVOICE_LABELS.ja.categories],
    ] as const) {
      const maps = levelWords(flat);
      expect(maps.size).toBeGreaterThanOrEqual(3);
      const words = ['light', 'medium', 'heavy', 'severe', 'oversize'].map((l) => estimate[l as keyof typeof estimate]);
      for (const [key, found] of maps) expect(found, key).toEqual(words);
    }
  });

  it('English and Japanese have exactly the same keys', () => {
    const onlyEnglish = [...english.keys()].filter((k) => !japanese.has(k));
    // ra-input-rich-text's toolbar labels carry their English text in code: only Japanese lists them (the English catalogue loads with the sign-in page).
    const onlyJapanese = [...japanese.keys()].filter((k) => !english.has(k) && !k.startsWith('ra.tiptap.'));
    expect({ onlyEnglish, onlyJapanese }).toEqual({ onlyEnglish: [], onlyJapanese: [] });
  });

  it('says scratch one way in Japanese, 傷, on the screens, the invoice, the PDF and the exports', () => {
    const texts = (x: unknown): string[] =>
      typeof x === 'string' ? [x] : Array.isArray(x) ? x.flatMap(texts) : x && typeof x === 'object' ? Object.values(x).flatMap(texts) : [];
    const all = [...japanese.values(), ...texts(INVOICE_LABELS.ja), ...texts(REPORT_LABELS.ja)];
    expect(all.filter((t) => /スクラッチ|擦り傷|引っかき/.test(t))).toEqual([]);
    const scratchKeys = [...english].filter(([k, v]) => !k.startsWith('ra.') && /scratch/i.test(v.replace(/%{\w+}/g, ''))).map(([k]) => k);
    expect(scratchKeys.length).toBeGreaterThan(10);
    expect(scratchKeys.filter((k) => !japanese.get(k)?.includes('傷'))).toEqual([]);
  });

  it('has no empty message of ours', () => {
    const ours = [...english, ...japanese].filter(([k]) => !k.startsWith('ra.'));
    expect(ours.filter(([, v]) => !v.trim()).map(([k]) => k)).toEqual([]);
  });

  it('names every webhook event in both languages', () => {
    const keys = WEBHOOK_EVENTS.map((e) => `resources.webhooks.events.${e.id}`);
    expect(keys.filter((k) => !english.has(k) || !japanese.has(k))).toEqual([]);
  });

  it('labels every menu entry of the domain', () => {
    expect(menuLabels(MENU).filter((key) => !english.has(key))).toEqual([]);
  });

  it('names every described resource, its fields, search placeholder and breadcrumbs', async () => {
    const resources = await loadResources();
    const keys = resources.flatMap((r) => [
      `resources.${r.name}.name`,
      r.searchPlaceholder,
      r.breadcrumbs.create,
      r.breadcrumbs.edit,
      ...Object.keys(r.fields).map((field) => `resources.${r.name}.fields.${field}`),
    ]);
    expect(keys.filter((key) => !english.has(key))).toEqual([]);
  });

  it("quotes the product's English texts", () => {
    expect(
      Object.fromEntries(
        [
          'app.title',
          'app.error.page_not_found',
          'app.error.access_denied',
          'app.crud.delete_title',
          'ra.notification.created',
          'resources.locations.search',
        ].map((k) => [k, english.get(k)]),
      ),
    ).toEqual({
      'app.title': 'Insurance ScanQuote',
      'app.error.page_not_found': 'PAGE NOT FOUND !',
      'app.error.access_denied': 'page access denied !',
      'app.crud.delete_title': 'are you sure ?',
      'ra.notification.created': 'Created Successfully',
      'resources.locations.search': 'Search Location',
    });
  });
});
