import { z } from 'zod';
import { lineName } from './invoice';

/**
 * The history of a scan or a quote (the `events` table): who changed what, when. The server records one event per
 * write and replies them through `GET scans/{id}/history` and `GET quotes/{id}/history`; the scan page and the quote
 * view show them, and both sides read the changes through `changesOf`.
 */

export const EVENT_ACTIONS = [
  'scan.created',
  'scan.updated',
  'scan.client_changed',
  'scan.deleted',
  'scan.refreshed',
  'scan.counts_changed',
  'scan.image_saved',
  'scan.image_deleted',
  'scan.tyre_choice',
  'quote.created',
  'quote.saved',
  'quote.supplement_created',
  'quote.supplement_withdrawn',
  'quote.deleted',
  'quote.check_changed',
  'quote.photo_deleted',
  'quote.sent',
  'quote.viewed',
  'quote.revoked',
  'quote.approved',
  'quote.partially_approved',
  'quote.declined',
  'quote.expired',
] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];
export type EventSubject = 'scan' | 'quote';

/** A changed field's value as the event keeps it. */
const EventValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type EventValue = z.infer<typeof EventValue>;
/** Only the fields that changed, by name (a damage count's name is `<panel>.<dents|scratchs>.<level>`). */
export type EventFields = Record<string, EventValue>;

/** One event as the history routes send it. */
export const EventRecord = z.object({
  id: z.number(),
  at: z.string().describe('ISO 8601 instant'),
  action: z.string(),
  actor_id: z.number().nullable(),
  actor_name: z.string().nullable().describe('The acting user, as named when they acted'),
  admin_name: z.string().nullable().describe('The Super Admin who acted as that user (impersonation), else null'),
  before: z.record(z.string(), EventValue),
  after: z.record(z.string(), EventValue),
});
export type EventRecord = z.infer<typeof EventRecord>;

/** The fields whose values differ between `before` and `after`, each side holding only those. */
export function changedFields(before: EventFields, after: EventFields): { before: EventFields; after: EventFields } {
  const out = { before: {} as EventFields, after: {} as EventFields };
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [b, a] = [before[key] ?? null, after[key] ?? null];
    if (b === a) continue;
    out.before[key] = b;
    out.after[key] = a;
  }
  return out;
}

/** An event's changes, one per field, in a stable order. */
export function changesOf(e: Pick<EventRecord, 'before' | 'after'>): { field: string; before: EventValue; after: EventValue }[] {
  const fields = [...new Set([...Object.keys(e.before), ...Object.keys(e.after)])].sort();
  return fields.map((field) => ({ field, before: e.before[field] ?? null, after: e.after[field] ?? null }));
}

/** A value as the timeline and the CSV print it: empty for none. */
export const eventValueText = (v: EventValue): string => (v === null ? '' : String(v));

/** A declined line as an answer's event keeps it: what the line is, so a reader's screen words it in their language. */
export interface DeclinedLine {
  kind: string;
  label: string;
  repair_type: string;
  category?: string | null;
  reason: string | null;
}

/** The `declined_lines` an answer's event keeps: the lines as JSON text (an event value is a plain value). */
export const declinedLinesValue = (lines: readonly DeclinedLine[]): EventValue =>
  lines.length
    ? JSON.stringify(
        lines.map((l) => ({ kind: l.kind, label: l.label, repair_type: l.repair_type, category: l.category ?? null, reason: l.reason })),
      )
    : null;

const DeclinedLines = z.array(
  z.object({ kind: z.string(), label: z.string(), repair_type: z.string(), category: z.string().nullish(), reason: z.string().nullable() }),
);

/**
 * `declined_lines` in words, in `language`: 'Roof – Conventional: Not now; …'. A value kept as text (an event recorded
 * before the lines were kept as lines) is shown as it is.
 */
export function declinedLinesText(v: EventValue, language: string): string {
  if (typeof v !== 'string' || !v.startsWith('[')) return eventValueText(v);
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    return v;
  }
  const lines = DeclinedLines.safeParse(parsed);
  if (!lines.success) return v;
  return lines.data.map((l) => `${lineName(l, language)}: ${l.reason ?? ''}`).join('; ');
}
