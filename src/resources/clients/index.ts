import { lazyComponent } from '../../components/lazyComponent';
import { clientFields, clientRules, weightedNoFields } from '../../domain/client-fields';
import type { FieldSpecs } from '../../domain/fields';
import { DENT_LEVELS } from '../../domain/pricing';
import type { FormScreenMode, InputCondition, ScreenExtras } from '../types';

const {
  name,
  currency,
  sc_metallic,
  sc_pearl,
  sc_p2p,
  calculation_method,
  sc_threshold,
  tyre_repair,
  tyre_replace,
  products,
  parts,
  logo,
  phone,
  address,
  email,
  abn,
} = clientFields;

/** Method W's five counts, as inputs at `weighted_no.<level>`, highest level first as the form lists them. */
const weightedInputs: FieldSpecs = Object.fromEntries(
  [...DENT_LEVELS].reverse().map((level) => [`weighted_no.${level}`, weightedNoFields[level]]),
);

const byMethod = (method: 'T' | 'W'): InputCondition => ({
  on: ['calculation_method'],
  when: (values) => values.calculation_method === method,
});

/**
 * Clients: the domain's fields in the form's order, the threshold or the weighted counts by
 * calculation method, and the two price matrices, the one thing a description cannot say.
 */
export const screens: ScreenExtras = {
  fields: {
    name,
    currency,
    sc_metallic,
    sc_pearl,
    sc_p2p,
    calculation_method,
    sc_threshold,
    ...weightedInputs,
    tyre_repair,
    tyre_replace,
    products,
    parts,
    logo,
    phone,
    address,
    email,
    abn,
  },
  form: {
    refine: clientRules,
    conditions: {
      sc_threshold: byMethod('T'),
      // Each weighted count is required with the weighted method (clientRules).
      ...Object.fromEntries(Object.keys(weightedInputs).map((source) => [source, { ...byMethod('W'), required: true }])),
    },
    // The matrices' inputs live at prices.dent.<partId>: the objects must exist so the ids stay keys, not array indexes.
    createDefaults: { prices: { dent: {}, scratch: {} }, products: [], parts: [] },
    extras: lazyComponent<{ mode: FormScreenMode }, 'PriceMatrices'>(() => import('./PriceMatrices'), 'PriceMatrices'),
  },
};
