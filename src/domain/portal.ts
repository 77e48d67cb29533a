import { z } from 'zod';
import type { Wire } from './records';
import { DAMAGE_LEVELS, DAMAGE_TYPES } from './scan-codes';

/**
 * The customer portal's records (the wire's Portal scan, docs/portal.md): what a kiosk without a sign-in may
 * see of the agent's scans of the last 48 hours. They are the server's response schemas, so no other column leaves:
 * never the client, agent, location, valuation, reports, videos or staff annotations. The browser imports the types.
 */

export { PORTAL_HOURS, PORTAL_MAX_ROWS } from './portal-window';

/** A card of NEW SCANS (has_quote false) or COMPLETED SCANS (true), and the live `saved` event's payload. */
export const PortalScanRecord = z
  .object({
    id: z.number(),
    licensePlate: z.string().nullable(),
    timestamp: z.date(),
    status: z.string(),
    type: z.string(),
    has_quote: z.boolean(),
    /** The scan's damage counts (dents + scratches, dents, scratches). */
    damageCount: z.number(),
    dentCount: z.number(),
    scratchCount: z.number(),
  })
  .meta({
    example: {
      id: 1042,
      licensePlate: '1AB2CD',
      timestamp: '2024-05-31T07:30:00.000Z',
      status: 'uploaded',
      type: 'arch',
      has_quote: false,
      damageCount: 5,
      dentCount: 3,
      scratchCount: 2,
    },
  });

const LevelCounts = z.object(
  Object.fromEntries(DAMAGE_LEVELS.map((l) => [l, z.number()])) as Record<(typeof DAMAGE_LEVELS)[number], z.ZodNumber>,
);

/**
 * The portal's scan page: the card's fields, the vehicle (registration, make, model, colour, body type), its overview
 * image and photos, and its damage (counts per panel and severity, each detection's image) and tyre findings.
 */
export const PortalScanDetailRecord = PortalScanRecord.extend({
  make: z.string().nullable(),
  model: z.string().nullable(),
  carColor: z.string().nullable(),
  body_type: z.string().nullable(),
  /** The scanner's overview image of the vehicle. */
  image: z.object({ thumbnail: z.string().nullable(), src: z.string().nullable() }).nullable(),
  /** Counts per car panel and severity. */
  measures: z.object({ dents: z.record(z.string(), LevelCounts), scratchs: z.record(z.string(), LevelCounts) }),
  /** Each detection with its close-up image. */
  damages: z.array(
    z.object({ id: z.number(), type: z.enum(DAMAGE_TYPES), carPanel: z.string(), level: z.string(), src: z.string().nullable() }),
  ),
  /** Tyre findings, front to rear, left then right, inner then outer. */
  tyres: z.array(
    z.object({
      label: z.string(),
      row: z.number(),
      direction: z.string(),
      position: z.string(),
      /** Tread depths across the tyre, mm. */
      depths: z.array(z.number()),
      eatenTire: z.string(),
      pressureTire: z.string(),
      imageFileUrl: z.string().nullable(),
    }),
  ),
  /** Photos of the vehicle (saved images flagged vehicle_photo). */
  photos: z.array(z.object({ id: z.number(), src: z.string() })),
});

/**
 * The portal's manual scan (Create Scan): nothing for a customer to choose. Type tire, status uploaded, the agent's
 * default client, started now; fields the admin call takes (agent_id, client_id, ...) are ignored, as a kiosk may not pick them.
 */
export const PortalManualScanBody = z.object({}).optional();

/** The records as the browser reads them (dates as ISO strings). */
export type PortalScan = Wire<z.infer<typeof PortalScanRecord>>;
export type PortalScanDetail = Wire<z.infer<typeof PortalScanDetailRecord>>;
