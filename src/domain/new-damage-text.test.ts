import polyglotI18nProvider from 'ra-i18n-polyglot';
import { describe, expect, it } from 'vitest';
import { enScreens } from '../i18n/en';
import { withScreens } from '../i18n/en-core';
import { ja } from '../i18n/ja';
import { compareDamage, newDamageSummary, newDamageText } from './vehicle-history';

const english = polyglotI18nProvider(() => withScreens(enScreens), 'en');
const japanese = polyglotI18nProvider(() => ja, 'ja');
const en = (key: string, options?: object) => english.translate(key, options);
const jp = (key: string, options?: object) => japanese.translate(key, options);

// Left front door: 1 → 3 medium dents; bonnet: a new light and a new heavy scratch; roof: a dent gone.
const comparison = compareDamage(
  { dents: { left_front_door: { medium: 1 }, roof: { light: 1 } }, scratchs: {} },
  { dents: { left_front_door: { medium: 3 } }, scratchs: { bonnet: { light: 1, heavy: 1 } } },
);

describe('newDamageText', () => {
  it('says the gains in English as the server’s summary does', () => {
    expect(newDamageText(comparison.panels, en)).toBe('Bonnet +2 scratches, Left Front Door +2 medium dents');
    expect(newDamageText(comparison.panels, en)).toBe(newDamageSummary(comparison));
  });

  it('says them in Japanese from the same differences', () => {
    expect(newDamageText(comparison.panels, jp)).toBe('Bonnet 傷 +2、Left Front Door 中程度のへこみ +2');
  });

  it('is empty when nothing is new', () => {
    const gone = compareDamage({ dents: { roof: { light: 1 } }, scratchs: {} }, { dents: {}, scratchs: {} });
    expect(newDamageText(gone.panels, jp)).toBe('');
  });
});
