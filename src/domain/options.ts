import { keyed, messages } from './messages';
import { z } from 'zod';
import { OPTION_NAMES, OPTION_VALUE_MAX, optionFields } from './option-fields';

// The fields live apart from the request bodies below so that the browser's described screens load without zod.
export { OPTION_NAMES, OPTION_VALUE_MAX, optionFields } from './option-fields';

/** What the Email Header & Footer page calls its two editors ('Header is required'). */
const LABELS: Record<string, string> = {
  [OPTION_NAMES.EMAIL_DEFAULT_HEADER]: 'Header',
  [OPTION_NAMES.EMAIL_DEFAULT_FOOTER]: 'Footer',
};

/** Rich-text editors leave markup such as `<p><br></p>` when emptied: no text and no image is blank. */
export function isBlankHtml(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  const text = html.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;|\u00a0/gi, ' ');
  return text.trim() === '';
}

const GST = /^\d{1,3}(\.\d{1,4})?$/;
/** 0 to 30 mm, at most one decimal (what a tread gauge reads). */
const TREAD_MM = /^(30(\.0)?|[12]?\d(\.\d)?)$/;
const TREAD_LABELS: Record<string, string> = {
  [OPTION_NAMES.TYRE_LEGAL_MIN_MM]: 'Tyre Legal Min MM',
  [OPTION_NAMES.TYRE_RECOMMENDED_MIN_MM]: 'Tyre Recommended Min MM',
};

/**
 * The rule for one option's new value, or null when it is fine: required (blank HTML counts as blank),
 * GST_PERCENT a number from 0 to 100, UPLOAD_QUOTA_MB a whole number of megabytes (0 stops uploads), the tyre limits
 * 0 to 30 mm with one decimal, VEHICLE_COMPARE_WINDOW_DAYS 1 to 3650 days, QUOTE_APPROVAL_DAYS 1 to 365 days.
 */
export function optionValueError(
  name: string,
  value: string,
  fieldType: string,
  label = LABELS[name] ?? optionFields.option_value.label,
): string | null {
  const blank = fieldType === 'editor' ? isBlankHtml(value) : value.trim() === '';
  if (blank) return messages.required(label);
  if (name === OPTION_NAMES.GST_PERCENT && (!GST.test(value.trim()) || Number(value) > 100))
    return keyed('GST Percent must be a number from 0 to 100', 'app.validation.option_gst');
  if (name === OPTION_NAMES.UPLOAD_QUOTA_MB && (!/^\d{1,7}$/.test(value.trim()) || Number(value) > 1_000_000))
    return keyed('Upload Quota MB must be a whole number from 0 to 1000000', 'app.validation.option_upload_quota');
  if ((name === OPTION_NAMES.TYRE_LEGAL_MIN_MM || name === OPTION_NAMES.TYRE_RECOMMENDED_MIN_MM) && !TREAD_MM.test(value.trim()))
    return keyed(`${TREAD_LABELS[name]} must be a number of mm from 0 to 30 with at most 1 decimal`, 'app.validation.option_tread_mm', {
      name: TREAD_LABELS[name],
    });
  if (name === OPTION_NAMES.VEHICLE_COMPARE_WINDOW_DAYS && (!/^\d{1,4}$/.test(value.trim()) || Number(value) < 1 || Number(value) > 3650))
    return keyed('Vehicle Compare Window Days must be a whole number of days from 1 to 3650', 'app.validation.option_compare_days');
  if (name === OPTION_NAMES.QUOTE_APPROVAL_DAYS && (!/^\d{1,3}$/.test(value.trim()) || Number(value) < 1 || Number(value) > 365))
    return keyed('Quote Approval Days must be a whole number of days from 1 to 365', 'app.validation.option_approval_days');
  return null;
}

/**
 * The tyre limits in order: the legal minimum may not be above the recommended one (the tyre cards' 'replace soon'
 * band lies between them). `name` is the limit being set to `value`, `other` the other limit's stored value; null when
 * they are in order or either is unreadable (optionValueError says so).
 */
export function treadOrderError(name: string, value: string, other: string | undefined): string | null {
  const legalSet = name === OPTION_NAMES.TYRE_LEGAL_MIN_MM;
  if (!legalSet && name !== OPTION_NAMES.TYRE_RECOMMENDED_MIN_MM) return null;
  const [legal, recommended] = (legalSet ? [value, other] : [other, value]).map((v) => (v === undefined ? NaN : Number(v)));
  if (!Number.isFinite(legal) || !Number.isFinite(recommended) || legal <= recommended) return null;
  return legalSet
    ? keyed(`Tyre Legal Min MM must not be above Tyre Recommended Min MM (${recommended} mm)`, 'app.validation.option_legal_above', {
        mm: recommended,
      })
    : keyed(`Tyre Recommended Min MM must not be below Tyre Legal Min MM (${legal} mm)`, 'app.validation.option_recommended_below', {
        mm: legal,
      });
}

const optionName = z
  .string({ error: 'Option Name must be a string' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z][A-Z0-9_]{0,99}$/, 'Option Name is invalid');

/** POST options/search: the upper-case names wanted (e.g. the terms dialog asks for TERMS_AND_CONDITIONS). */
export const OptionSearchBody = z.object({
  option_name: z
    .array(optionName, { error: (i) => (i.input === undefined ? 'Option Name is required' : 'Option Name must be a list of names') })
    .min(1, 'Option Name is required')
    .max(100, messages.maxItems('Option Name', 100)),
});

/** POST options/bulksave: several options saved at once (the Email Header & Footer page). */
export const OptionBulkSaveBody = z
  .array(
    z.object({
      option_name: optionName,
      option_value: z
        .string({ error: 'Option Value is required' })
        .max(OPTION_VALUE_MAX, `Option Value must be less than ${OPTION_VALUE_MAX}`),
    }),
    { error: 'A list of options is required' },
  )
  .min(1, 'A list of options is required')
  .max(50);
