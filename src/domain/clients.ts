import { z } from 'zod';
import { dentPriceFields, levelLabel, scratchPriceFields, weightedNoFields } from './client-fields';
import { inputSchema } from './fields';
import { DENT_LEVELS, type DentLevel } from './pricing';

export * from './client-fields';

const blankToUndefined = (v: unknown) => (v === null || v === '' ? undefined : v);
const byPart = (row: z.ZodType) =>
  z.record(z.string().regex(/^[1-9]\d{0,14}$/), row, {
    error: (iss) => (iss.code === 'invalid_key' ? 'Prices are keyed by part id' : 'Prices must be an object keyed by part id'),
  });

/**
 * The client's nested inputs, validated cell by cell: a bad cell is reported at its path, e.g.
 * `prices.dent.12.heavy: 'Heavy must be greater than or equal to 0'`. An absent matrix is left as it is.
 */
export const clientExtraInput = {
  weighted_no: z.preprocess(blankToUndefined, inputSchema(weightedNoFields).optional()),
  prices: z.preprocess(
    blankToUndefined,
    z
      .object(
        {
          dent: z.preprocess(blankToUndefined, byPart(inputSchema(dentPriceFields)).optional()),
          scratch: z.preprocess(blankToUndefined, byPart(inputSchema(scratchPriceFields)).optional()),
        },
        { error: 'Prices must be an object' },
      )
      .optional(),
  ),
};

/** `POST clients/calculate-category`: a panel's dent counts per level (missing levels count 0). */
export const dentCountFields = Object.fromEntries(
  DENT_LEVELS.map((l) => [l, { type: 'number', label: levelLabel[l], integer: true, min: 0, max: 100_000, default: 0 }]),
) as Record<DentLevel, { type: 'number'; label: string; integer: true; min: number; max: number; default: number }>;

export const calculateCategoryInput = z.object({
  client_id: inputSchema({ client_id: { type: 'reference', label: 'Client', reference: 'clients', required: true } }).shape.client_id,
  categories: z.preprocess((v) => v ?? {}, inputSchema(dentCountFields, 'create')),
});
