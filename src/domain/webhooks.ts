import type { FieldSpecs } from './fields';

/** What an agent's webhook may subscribe to (`GET webhooks/events`); the scan and quote services send them. */
export const WEBHOOK_EVENTS = [
  { id: 'scan.created', name: 'Scan created' },
  { id: 'scan.updated', name: 'Scan updated' },
  { id: 'scan.new_damage', name: 'New damage since the last scan' },
  { id: 'quote.generated', name: 'Quote generated' },
  { id: 'quote.sent', name: 'Quote sent for approval' },
  { id: 'quote.viewed', name: 'Quote approval link opened' },
  { id: 'quote.approved', name: 'Quote approved (wholly or in part)' },
  { id: 'quote.declined', name: 'Quote declined' },
  { id: 'quote.expired', name: 'Quote approval link expired' },
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]['id'];

/** Where a webhook delivery stands (docs/webhooks.md): queued or being retried, taken with a 2xx, or given up. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/**
 * Why a delivery attempt failed (`last_error`, docs/webhooks.md), worded by the webhook panel. Classes only, on
 * purpose: a refused or unreachable target says nothing about which of its ports are open.
 */
export const WEBHOOK_FAILURES = ['refused', 'unreachable', 'timeout', 'tls', 'redirect', 'http'] as const;
export type WebhookFailure = (typeof WEBHOOK_FAILURES)[number];

/** A webhook: endpoint an http(s) URL, at least one event; the secret is never an input. */
export const webhookFields = {
  agent_id: { type: 'reference', label: 'Agent', reference: 'agents', required: true },
  endpoint: { type: 'text', label: 'Endpoint', required: true, url: true, max: 2000, list: true },
  description: { type: 'text', label: 'Description', max: 500, multiline: true, list: true },
  events: { type: 'multichoice', label: 'Events', required: true, choices: WEBHOOK_EVENTS, list: true },
} satisfies FieldSpecs;
