import { z } from 'zod';
import { dentPriceFields, scratchPriceFields } from './client-fields';
import { DENT_LEVELS, type DentLevel, TYRE_CHOICES } from './pricing';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_FAILURES } from './webhooks';

/**
 * Records as the server sends them (its response schemas: anything not named never leaves) and as the
 * browser reads them (`Wire<z.infer<…>>`: dates arrive as ISO strings). One declaration for both sides.
 * The browser imports only the types, so zod stays out of its screens.
 */
export type Wire<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

const when = '2024-05-31T07:30:00.000Z';

/** A scan list row (the wire's Scan, the list's columns and the live events' fields). */
export const ScanItemRecord = z
  .object({
    id: z.number(),
    scan_id: z.string(),
    licensePlate: z.string().nullable(),
    make: z.string().nullable(),
    model: z.string().nullable(),
    carColor: z.string().nullable(),
    body_type: z.string().nullable(),
    valuation: z.number().nullable(),
    location_id: z.number().nullable(),
    location_name: z.string().nullable(),
    location_state: z.string().nullable(),
    client_id: z.number().nullable(),
    client_name: z.string().nullable(),
    agent_id: z.number(),
    agent_name: z.string(),
    device_id: z.number().nullable(),
    type: z.string(),
    status: z.string(),
    timestamp: z.date(),
    startTime: z.date().nullable(),
    damageCount: z.number(),
    dentCount: z.number(),
    scratchCount: z.number(),
    created_at: z.date(),
    updated_at: z.date(),
    /** The scan has a quote (the customer portal's 'completed'). */
    has_quote: z.boolean(),
    /** Damage gained since the vehicle's previous scan of its kind (the sum of the gains; 0 without a comparison). */
    new_damage: z.number().int().optional(),
  })
  .meta({
    example: {
      id: 1042,
      scan_id: '7f3c2a9e-arch-0001',
      licensePlate: '1AB2CD',
      make: 'Toyota',
      model: 'Corolla',
      carColor: 'Silver',
      body_type: 'Hatchback',
      valuation: 18500,
      location_id: 1,
      location_name: 'Collingwood Depot',
      location_state: 'VIC',
      client_id: 1,
      client_name: 'Southern Cross Insurance',
      agent_id: 1,
      agent_name: 'Melbourne Auto Scan',
      device_id: 1,
      type: 'arch',
      status: 'uploaded',
      timestamp: when,
      startTime: when,
      damageCount: 7,
      dentCount: 5,
      scratchCount: 2,
      created_at: when,
      updated_at: when,
      has_quote: false,
      new_damage: 0,
    },
  });

/** An object of numbers under the given keys. */
const numbers = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number()])) as Record<K, z.ZodNumber>);
const levelCounts = numbers(DENT_LEVELS);
const Level = z.enum(DENT_LEVELS);
const partResult = z.record(z.string(), z.unknown()).nullable();

/** A saved image of a scan (the wire's annotates): crops, annotations and vehicle photos; `path` is the stored file's name. */
export const AnnotateRecord = z.object({ id: z.number(), src: z.string(), path: z.string(), vehicle_photo: z.boolean() });

/** A wheel's repair choice (the wire's Selected repair): row and side, the tyre label, and the choice with its label. */
export const TyreRepairRecord = z.object({
  row: z.number(),
  direction: z.enum(['L', 'R']),
  position: z.enum(['left', 'right']),
  label: z.string(),
  repair_type: z.enum(['repair', 'recheck', 'replace']),
  repair_label: z.string(),
});
export type TyreRepair = Wire<z.infer<typeof TyreRepairRecord>>;

/** The whole scan for the scan page: the row plus meta, results, detections, counts, tyres, videos, images and reports. */
export const ScanDetailRecord = ScanItemRecord.extend({
  meta: z
    .object({ id: z.number(), scan_id: z.string(), thumbnailImagePathUrl: z.string().nullable(), srcImagePathUrl: z.string().nullable() })
    .nullable(),
  arch: partResult,
  chasis: partResult,
  tire: partResult,
  rims: partResult,
  damages: z.array(
    z.object({
      id: z.number(),
      damage_id: z.string(),
      src: z.string().nullable(),
      /** The stored file's name (what POST emails takes as an attachment), null without an image. */
      path: z.string().nullable(),
      type: z.string(),
      carPanel: z.string(),
      level: z.string(),
      width_mm: z.number(),
      height_mm: z.number(),
      data: z.array(z.object({ measure: z.string(), width_mm: z.number(), height_mm: z.number() })),
    }),
  ),
  measures: z.object({
    dents: z.record(z.string(), levelCounts),
    scratchs: z.record(z.string(), levelCounts),
    damage_count: z.record(z.string(), z.number()),
  }),
  data: z.array(
    z.object({
      id: z.number(),
      row: z.number(),
      direction: z.string(),
      position: z.string(),
      label: z.string(),
      depths: z.array(z.number()),
      measurementImageUrl: z.string().nullable(),
      imageFileUrl: z.string().nullable(),
      coordinates: z.object({ x: z.number(), y: z.number() }).nullable(),
      conclusionDescription: z.object({ eatenTire: z.string(), pressureTire: z.string() }),
    }),
  ),
  videos: z.array(z.object({ id: z.number(), video_id: z.string(), src: z.string(), thumbnail: z.string().nullable() })),
  annotates: z.array(AnnotateRecord),
  report_pdfs: z.array(z.object({ label: z.string(), url: z.string(), path: z.string() })),
  pdf: z.string().nullable(),
  pdf_url: z.string().nullable(),
  pdf_path: z.string().nullable(),
  /** The agent viewer's repair choice per wheel (PUT scans/{id}/tyre-repairs). */
  tyre_repairs: z.array(TyreRepairRecord),
  /** The scan's version (src/domain/versions.ts), sent back with each edit; a record without one saves unchecked. */
  version: z.number().int().optional(),
  /** The vehicle the scan is linked to (its page: /vehicles/{id}); null without a registration or VIN. */
  vehicle_id: z.number().nullable().optional(),
});

export type ScanItem = Wire<z.infer<typeof ScanItemRecord>>;
export type ScanDetail = Wire<z.infer<typeof ScanDetailRecord>>;

/** GET meta/{id}: the scan's meta images (the wire's meta), null when the device sent none (the page then shows no tabs). */
export const ScanMetaRecord = z
  .object({ id: z.number(), scan_id: z.string(), thumbnailImagePathUrl: z.string().nullable(), srcImagePathUrl: z.string().nullable() })
  .nullable();

/**
 * GET archData/search?scan_id= (the wire's Damage panel group, Measures): the counts by measure (`countbymeasure`:
 * per panel and level, as the detail's `measures`) and the panel groups of the car sketch in position order, each with
 * its panels' dent and scratch counts, the group's totals and its counts per level (the chips' tooltips).
 * `unplaced` lists counted panel codes that no active panel names (they still count in the scan's totals).
 */
export const ArchDataRecord = z.object({
  scan_id: z.number(),
  type: z.string(),
  countbymeasure: z.object({
    dents: z.record(z.string(), levelCounts),
    scratchs: z.record(z.string(), levelCounts),
    damage_count: z.record(z.string(), z.number()),
  }),
  panel_groups: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      image: z.string().nullable(),
      position: z.number(),
      dent_total: z.number(),
      scratch_total: z.number(),
      dents: levelCounts,
      scratchs: levelCounts,
      panels: z.array(
        z.object({
          id: z.number(),
          name: z.string(),
          label: z.string(),
          carPanel: z.string(),
          type: z.string(),
          position: z.number(),
          dent_count: z.number(),
          scratch_count: z.number(),
        }),
      ),
    }),
  ),
  unplaced: z.array(z.string()),
});
export type ArchData = Wire<z.infer<typeof ArchDataRecord>>;

/** The contact block of an agent or a client as invoices and quotes head them. */
export const contactFields = {
  logo: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  email: z.string().nullable(),
  abn: z.string().nullable(),
};

/**
 * A client as pricing reads it (the wire's Client, docs/pricing.md "Inputs"): surcharges, category method, the products and
 * parts it offers, and both price matrices keyed by part id. GET clients, the quote screen's evaluation and the quote's
 * snapshot of its client all read this one record.
 */
export const PricingClientRecord = z.object({
  id: z.number(),
  name: z.string(),
  currency: z.string(),
  sc_metallic: z.number(),
  sc_pearl: z.number(),
  sc_p2p: z.number(),
  calculation_method: z.enum(['T', 'W']),
  sc_threshold: z.number().nullable(),
  weighted_no: z
    .object(Object.fromEntries(DENT_LEVELS.map((l) => [l, z.number().nullable()])) as Record<DentLevel, z.ZodNullable<z.ZodNumber>>)
    .nullable(),
  tyre_repair: z.number(),
  tyre_replace: z.number(),
  products: z.array(z.number()),
  parts: z.array(z.number()),
  prices: z.object({
    dent: z.record(z.string(), numbers(Object.keys(dentPriceFields) as (keyof typeof dentPriceFields)[])),
    scratch: z.record(z.string(), numbers(Object.keys(scratchPriceFields) as (keyof typeof scratchPriceFields)[])),
  }),
  ...contactFields,
});

/** `GET scans/{id}/evaluate` (the wire's Quote evaluation): what the quote screen prices a scan with. */
export const EvaluationRecord = z.object({
  measures: z.object({
    dents: z.record(z.string(), levelCounts),
    scratchs: z.record(z.string(), levelCounts),
    damage_count: z.object({ dents: z.record(z.string(), z.number()), scratchs: z.record(z.string(), z.number()) }),
  }),
  /** The scan's client with its matrices (GET clients/{id}'s prices) and each car panel's category; null when the scan has none. */
  client: PricingClientRecord.extend({
    /** Keyed by car panel: the category of its dents under the client's method, null without dents. */
    thresholdCategory: z.record(z.string(), Level.nullable()),
  }).nullable(),
  /** The enabled catalogue panels by car view, each with the part that prices it and its category on this scan. */
  panels: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      label: z.string(),
      car_panel: z.string().nullable(),
      type: z.enum(['D', 'L', 'XL']),
      hasLargeVariant: z.boolean(),
      part_id: z.number().nullable(),
      panel_group_id: z.number(),
      panel_group_name: z.string().nullable(),
      position: z.number(),
      thresholdCategory: Level.nullable(),
    }),
  ),
  scanInfo: ScanItemRecord,
  /** The agent's tyre choices on the scan, in wheel order: the quote's Tyres section. */
  tyres: z.array(z.object({ row: z.number(), direction: z.enum(['L', 'R']), label: z.string(), repair_type: z.enum(TYRE_CHOICES) })),
  /** GST_PERCENT now: what saving the quote prices it with (the preview uses it; a saved quote keeps its own). */
  gst_percent: z.number(),
  /** The scan's comparison with its vehicle's previous scan, when it has one: "Price only the new damage" is offered then. */
  comparison: z.object({ previous_scan_id: z.number(), compared_with: z.date() }).nullable(),
  /** True when the counts above are the comparison's gains (asked with new_damage_only=1). */
  new_damage_only: z.boolean(),
  /** Then: the car panels damaged on the scan that gained nothing, listed as pre-existing at 0. */
  pre_existing: z.array(z.string()),
  /** Then: the car panels that gained damage and had some before, priced for the gain only. */
  partly_pre_existing: z.array(z.string()),
});
export type EvaluationReply = Wire<z.infer<typeof EvaluationRecord>>;

/** POST license-plates/search: a registration the look-up knows, for the autocomplete. */
export const PlateSuggestionRecord = z.object({
  number: z.string(),
  state: z.string().nullable(),
  make: z.string().nullable(),
  model: z.string().nullable(),
});
export type PlateSuggestion = Wire<z.infer<typeof PlateSuggestionRecord>>;

/**
 * GET license-plates/fetch/{number}?state= (the wire's License lookup result): the vehicle fields the fetch button fills
 * (colour, body type, make, model) and the valuation in whole dollars.
 */
export const PlateLookupRecord = z.object({
  number: z.string(),
  state: z.string().nullable(),
  ag_response: z.object({
    colour: z.string().nullable(),
    make: z.string().nullable(),
    model: z.string().nullable(),
    vehicle: z.object({ body_type: z.string().nullable() }),
  }),
  valuation_response: z.object({ price: z.number().nullable() }),
});
export type PlateLookup = Wire<z.infer<typeof PlateLookupRecord>>;

/** A mail's attachment: the stored file, the name the mail gives it, its type and size. */
const MailAttachmentRecord = z.object({ key: z.string(), filename: z.string(), content_type: z.string(), size: z.number() });

/** POST emails: the mail as recorded with the scan (queued in the outbox, sent by it). */
export const ScanMailRecord = z.object({
  id: z.number(),
  scan_id: z.number(),
  recipients: z.array(z.string()),
  subject: z.string(),
  attachments: z.array(MailAttachmentRecord),
  created_at: z.date(),
});

/** A merge field a mail template may use (GET merge-fields; the list is MERGE_FIELDS of scan-mail.ts). */
export const MergeFieldRecord = z.object({
  name: z.string(),
  description: z.object({ en: z.string(), ja: z.string() }),
  example: z.string(),
  mails: z.array(z.enum(['scan', 'approval'])),
});

/**
 * The mail POST emails would send, rendered and not sent (POST emails/preview): subject, HTML and text with the
 * merge fields filled, the attachments' names, and the placeholders left (then sending is refused).
 */
export const MailPreviewRecord = z.object({
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  attachments: z.array(MailAttachmentRecord),
  unresolved: z.array(z.string()),
});
export type MailPreview = Wire<z.infer<typeof MailPreviewRecord>>;

/** An agent's webhook; the secret goes to holders of `agent` (the receiver verifies with it). */
export const WebhookRecord = z.object({
  id: z.number(),
  agent_id: z.number(),
  endpoint: z.string(),
  description: z.string().nullable(),
  secret: z.string(),
  events: z.array(z.string()),
  created_at: z.date(),
  updated_at: z.date(),
});
export type Webhook = Wire<z.infer<typeof WebhookRecord>>;

/** The latest delivery of a webhook (`GET webhooks/deliveries?agent_id=`, docs/webhooks.md). */
export const WebhookDeliveryRecord = z.object({
  webhook_id: z.number(),
  event: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  last_status: z.number().nullable(),
  last_error: z.enum(WEBHOOK_FAILURES).nullable(),
  created_at: z.date(),
  delivered_at: z.date().nullable(),
  next_attempt_at: z.date(),
});
export type WebhookDelivery = Wire<z.infer<typeof WebhookDeliveryRecord>>;

/** The user as it leaves the server: relations by name/id, and only whether an API key exists. */
export const UserRecord = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  agents: z.array(z.number()),
  clients: z.array(z.number()),
  has_api_key: z.boolean(),
  created_at: z.date(),
  updated_at: z.date(),
});
export type User = Wire<z.infer<typeof UserRecord>>;
