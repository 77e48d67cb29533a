import polyglotI18nProvider from 'ra-i18n-polyglot';
import { describe, expect, it } from 'vitest';
import { enScreens } from '../i18n/en';
import { withScreens } from '../i18n/en-core';
import { ja } from '../i18n/ja';
import { damageImageText, panelLabels } from './damage-images';

const english = polyglotI18nProvider(() => withScreens(enScreens), 'en');
const japanese = polyglotI18nProvider(() => ja, 'ja');
const en = (key: string, options?: Record<string, unknown>) => english.translate(key, options);
const jp = (key: string, options?: Record<string, unknown>) => japanese.translate(key, options);

const dent = { carPanel: 'right_c_pillar', type: 'dents', level: 'heavy', width_mm: 24, height_mm: 18 };

describe("a damage close-up's caption and alt text", () => {
  it("reads as people write: the panel's label, the level and kind in words, the size in mm", () => {
    expect(damageImageText(dent, en, 'Right C Pillar')).toBe('Right C Pillar — Heavy dent — 24 × 18 mm');
    expect(damageImageText({ ...dent, type: 'scratchs', level: 'light' }, en, 'Bonnet')).toBe('Bonnet — Light scratch — 24 × 18 mm');
  });

  it('writes the panel code out when no label names it, never the raw code', () => {
    const text = damageImageText(dent, en);
    expect(text).toBe('Right C Pillar — Heavy dent — 24 × 18 mm');
    expect(text).not.toContain('right_c_pillar');
  });

  it('takes a level in any case, keeps an unknown one as it came, and rounds sizes to a tenth of a mm', () => {
    expect(damageImageText({ ...dent, level: 'Severe', width_mm: 12.345, height_mm: 7 }, en, 'Roof')).toBe(
      'Roof — Severe dent — 12.3 × 7 mm',
    );
    expect(damageImageText({ ...dent, level: 'Huge' }, en, 'Roof')).toBe('Roof — Huge dent — 24 × 18 mm');
  });

  it('leaves the size out when the detection is not measured (the portal sends no size)', () => {
    expect(damageImageText({ carPanel: 'bonnet', type: 'dents', level: 'medium' }, en)).toBe('Bonnet — Medium dent');
    expect(damageImageText({ ...dent, width_mm: 0, height_mm: 0 }, en, 'Roof')).toBe('Roof — Heavy dent');
  });

  it('is Japanese in Japanese', () => {
    expect(damageImageText(dent, jp, '右Cピラー')).toBe('右Cピラー — 重度のへこみ — 24 × 18 mm');
    expect(damageImageText({ ...dent, type: 'scratchs', level: 'light' }, jp, 'ボンネット')).toBe('ボンネット — 軽度の傷 — 24 × 18 mm');
  });
});

describe("panels' labels from the sketch", () => {
  it('maps each panel code to its label (the name without one; the first view wins), empty without the sketch', () => {
    const panel = (carPanel: string, label: string, name = 'x') => ({
      id: 1,
      name,
      label,
      carPanel,
      type: 'panel',
      position: 1,
      dent_count: 0,
      scratch_count: 0,
    });
    const group = (panels: ReturnType<typeof panel>[]) => ({ panels }) as never;
    const labels = panelLabels({
      panel_groups: [group([panel('right_c_pillar', 'Right C Pillar'), panel('bonnet', '', 'Bonnet')]), group([panel('bonnet', 'Hood')])],
    });
    expect(labels.get('right_c_pillar')).toBe('Right C Pillar');
    expect(labels.get('bonnet')).toBe('Bonnet');
    expect(panelLabels(undefined).size).toBe(0);
  });
});
