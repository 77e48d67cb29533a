import { describe, expect, it } from 'vitest';
import { en } from '../i18n/english';
import { ja } from '../i18n/ja';
import { messageKeyOf } from './messages';
import { OPTION_NAMES, optionValueError, treadOrderError } from './options';

const lookup = (catalogue: object, key: string) =>
  key
    .split('.')
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), catalogue);

describe("the application settings' rules", () => {
  it('word each refusal with a message key both languages translate', () => {
    const texts = [
      optionValueError(OPTION_NAMES.GST_PERCENT, '101', 'text'),
      optionValueError(OPTION_NAMES.UPLOAD_QUOTA_MB, '1.5', 'text'),
      optionValueError(OPTION_NAMES.TYRE_LEGAL_MIN_MM, '31', 'text'),
      optionValueError(OPTION_NAMES.VEHICLE_COMPARE_WINDOW_DAYS, '0', 'text'),
      optionValueError(OPTION_NAMES.QUOTE_APPROVAL_DAYS, '400', 'text'),
      treadOrderError(OPTION_NAMES.TYRE_LEGAL_MIN_MM, '5', '3'),
      treadOrderError(OPTION_NAMES.TYRE_RECOMMENDED_MIN_MM, '1', '1.5'),
    ];
    expect(texts[5]).toBe('Tyre Legal Min MM must not be above Tyre Recommended Min MM (3 mm)');
    const keys = texts.map((t) => messageKeyOf(t ?? '')?.key);
    expect(keys.filter((k) => !k)).toEqual([]);
    expect(keys.filter((k) => typeof lookup(en, k!) !== 'string' || typeof lookup(ja, k!) !== 'string')).toEqual([]);
  });

  it('keeps the tyre limits in order, and says nothing when they are', () => {
    expect(treadOrderError(OPTION_NAMES.TYRE_LEGAL_MIN_MM, '3', '3')).toBeNull();
    expect(treadOrderError(OPTION_NAMES.TYRE_RECOMMENDED_MIN_MM, '4', '1.5')).toBeNull();
    expect(treadOrderError(OPTION_NAMES.GST_PERCENT, '50', '3')).toBeNull();
  });
});
