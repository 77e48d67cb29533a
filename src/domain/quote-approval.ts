import { z } from 'zod';
import { messages } from './messages';
import { type Cents, centsToAmount, percentOf, sumCents } from './money';
import { type PricedLine, tyreLineKey } from './pricing';
import { safeString, singleLine } from './text';

/**
 * Customer approval by link: a quote's status, the lines a customer approves or declines, the bodies and replies of
 * the send, revoke and public approval routes, and the merge fields of the approval mail. The server decides; the
 * Quote Generation screen and the public approval page show the same rules.
 */

/** A quote's status: a draft until sent for approval; then the customer's answer, or the link's end. */
export const QUOTE_STATUSES = ['draft', 'sent', 'approved', 'partially_approved', 'declined', 'expired', 'revoked'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/**
 * The mail templates the approval mail is written from, one per agent language (seeded by migrations 026 and 038; a
 * built-in copy when one is gone): an agent's customers get the mail in the agent's language, as the page it links to.
 */
export const APPROVAL_TEMPLATE_NAMES = { en: 'Quote approval request', ja: 'Quote approval request (Japanese)' } as const;
export const APPROVAL_TEMPLATE_NAME = APPROVAL_TEMPLATE_NAMES.en;
export const APPROVAL_TEMPLATE_BODIES = {
  en:
    '<p>Your estimate {{quote_number}} for {{registration}} ({{make}} {{model}}, {{client_name}}) comes to ' +
    '{{grand_total}}.</p><p>Please review it, approve or decline each line and sign here: ' +
    '<a href="{{approval_link}}">{{approval_link}}</a></p><p>The link is valid until {{expires_on}}.</p>' +
    '<p>{{agent_name}}<br>{{agent_email}} {{agent_phone}}</p>',
  ja:
    '<p>{{registration}}（{{make}} {{model}}、{{client_name}}）の見積 {{quote_number}} の合計は {{grand_total}} です。</p>' +
    '<p>内容をご確認のうえ、明細ごとに承認または辞退を選び、こちらから署名してください: ' +
    '<a href="{{approval_link}}">{{approval_link}}</a></p><p>このリンクは {{expires_on}} まで有効です。</p>' +
    '<p>{{agent_name}}<br>{{agent_email}} {{agent_phone}}</p>',
} as const;
export const APPROVAL_TEMPLATE_BODY = APPROVAL_TEMPLATE_BODIES.en;

/** The approval mail's own words around its template, in the agent's language ({label}: a supplement's, S1). */
export const APPROVAL_MAIL_WORDS = {
  en: {
    subject: 'Estimate {{quote_number}} for {{registration}}: your approval',
    supplement_subject: 'Supplement {label} to estimate {{quote_number}} for {{registration}}: your approval',
    supplement_intro:
      'Supplement {label} changes your estimate. Only the lines that changed are asked again; your earlier answers stand for the others.',
  },
  ja: {
    subject: '見積 {{quote_number}}（{{registration}}）承認のお願い',
    supplement_subject: '見積 {{quote_number}} の追加見積 {label}（{{registration}}）承認のお願い',
    supplement_intro:
      '追加見積 {label} は、お送りした見積を変更するものです。変更された明細についてのみ改めて回答をお願いします。その他の明細は以前の回答のままです。',
  },
} as const;

/** How many days a link is valid when the application setting QUOTE_APPROVAL_DAYS is missing or unreadable. */
export const APPROVAL_DAYS_DEFAULT = 14;

/** The merge fields of the approval mail's template (`{{name}}`), documented in docs/server.md. */
export const APPROVAL_MERGE_FIELDS = [
  'client_name',
  'registration',
  'make',
  'model',
  'quote_number',
  'grand_total',
  'approval_link',
  'expires_on',
  'agent_name',
  'agent_email',
  'agent_phone',
] as const;
export type ApprovalMergeField = (typeof APPROVAL_MERGE_FIELDS)[number];

/** The public page's path; the token is the link's only secret. */
export const approvalPath = (token: string) => `/approve/${token}`;
/** A link's token: 32 random bytes, base64url. */
export const APPROVAL_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** One line the customer decides on: a panel's dent or scratch line, a tyre line or a product. */
export interface ApprovalLine {
  /** `dent:<panelId>`, `scratch:<panelId>`, `tyre:<row>:<direction>`, `product:<productId>`. */
  key: string;
  kind: 'dent' | 'scratch' | 'tyre' | 'product';
  label: string;
  /** The repair type (pdr, conventional, spot, replace…); a product's own name for products. */
  repair_type: string;
  /** A pdr dent line's level (light … oversize), else null: `lineWords` names the work with it. */
  category: string | null;
  amount: Cents;
  /** The quoted panel the line repairs (its evidence: images, dent and scratch counts), else null. */
  panel_id: number | null;
  car_panel: string | null;
  dents: Record<string, number>;
  scratchs: Record<string, number>;
}

/** A line's kind read back from its key (`dent:12`, `scratch:12`, `product:7`; a tyre's key is its wheel). */
export const kindOfLineKey = (key: string): ApprovalLine['kind'] => {
  const prefix = key.slice(0, key.indexOf(':'));
  return prefix === 'dent' || prefix === 'scratch' || prefix === 'product' ? prefix : 'tyre';
};

/** The lines a customer is asked about: every priced line with an amount, then every product. */
export function approvalLinesOf(q: {
  panels: readonly Pick<ApprovalLine, 'panel_id' | 'label' | 'car_panel' | 'dents' | 'scratchs'>[];
  lines: readonly PricedLine[];
  tyres: readonly { row: number; direction: 'L' | 'R'; label: string }[];
  products: readonly { value: number; text: string; price: Cents }[];
}): ApprovalLine[] {
  const out: ApprovalLine[] = [];
  for (const line of q.lines) {
    if (line.line_total <= 0) continue;
    if (line.kind === 'tyre') {
      const wheel = q.tyres.find((t) => tyreLineKey(t) === line.panel_id);
      out.push({
        key: String(line.panel_id),
        kind: 'tyre',
        label: wheel?.label ?? String(line.panel_id),
        repair_type: line.repair_type,
        category: null,
        amount: line.line_total,
        panel_id: null,
        car_panel: null,
        dents: {},
        scratchs: {},
      });
      continue;
    }
    const panel = q.panels.find((p) => p.panel_id === line.panel_id);
    out.push({
      key: `${line.kind}:${line.panel_id}`,
      kind: line.kind,
      label: panel?.label ?? String(line.panel_id),
      repair_type: line.repair_type,
      category: line.kind === 'dent' ? (line.category ?? null) : null,
      amount: line.line_total,
      panel_id: panel?.panel_id ?? null,
      car_panel: panel?.car_panel ?? null,
      dents: panel?.dents ?? {},
      scratchs: panel?.scratchs ?? {},
    });
  }
  q.products.forEach((p) =>
    out.push({
      key: `product:${p.value}`,
      kind: 'product',
      label: p.text,
      repair_type: p.text,
      category: null,
      amount: p.price,
      panel_id: null,
      car_panel: null,
      dents: {},
      scratchs: {},
    }),
  );
  return out;
}

export const LINE_ANSWERS = ['approved', 'declined'] as const;
export type ApprovalDecision = (typeof LINE_ANSWERS)[number];

/** The approved lines' sum, GST on it (rounded once, as the engine does) and the total with GST, in cents. */
export function approvedTotals(lines: readonly ApprovalLine[], decisions: Record<string, ApprovalDecision>, gstPercent: number) {
  const sub_total = sumCents(lines.filter((l) => decisions[l.key] === 'approved').map((l) => l.amount));
  const tax = percentOf(sub_total, gstPercent > 0 ? gstPercent : 0);
  return { sub_total, tax, grand_total: sub_total + tax };
}

/** The quote's status once the customer has answered: every line approved, none, or some. */
export function approvalOutcome(decisions: readonly ApprovalDecision[]): 'approved' | 'partially_approved' | 'declined' {
  const approved = decisions.filter((d) => d === 'approved').length;
  if (approved === decisions.length) return 'approved';
  return approved === 0 ? 'declined' : 'partially_approved';
}

const email = (label: string) =>
  singleLine(label, { error: (i) => (i.input == null ? messages.required(label) : `${label} must be a string`) })
    .trim()
    // Lower-cased as the scan mail's recipients are: one address, one spelling in the links' records and figures.
    .toLowerCase()
    .min(1, messages.required(label))
    .max(255, messages.max(label, 255))
    .pipe(z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, messages.email()));

/** POST quotes/{id}/approval: where the link goes. */
export const sendApprovalBody = z.object({ recipient: email('Recipient') });

/** The drawn signature: a PNG as a data URL, at most this many bytes once decoded. */
export const SIGNATURE_MAX_BYTES = 200_000;
const SIGNATURE_PREFIX = 'data:image/png;base64,';

/** POST approvals/{token}: every offered line decided (a reason to decline), the terms accepted, the name and signature. */
export const approvalAnswerBody = z.object({
  decisions: z
    .array(
      z.object({
        key: singleLine('Line').min(1, messages.required('Line')).max(100, messages.maxLength('Line', 100)),
        decision: z.enum(LINE_ANSWERS, { error: 'Decision must be approved or declined' }),
        reason: safeString('Reason').trim().max(1000, messages.maxLength('Reason', 1000)).optional(),
      }),
      { error: 'Decisions are required' },
    )
    .max(500, messages.maxItems('Decisions', 500)),
  terms_accepted: z.literal(true, { error: 'The terms must be accepted' }),
  signer_name: singleLine('Full name', { error: () => messages.required('Full name') })
    .trim()
    .min(1, messages.required('Full name'))
    .max(200, messages.maxLength('Full name', 200)),
  signature: z
    .string({ error: 'Signature is required' })
    .startsWith(SIGNATURE_PREFIX, 'Signature must be a PNG image')
    .max(
      Math.ceil((SIGNATURE_MAX_BYTES * 4) / 3) + SIGNATURE_PREFIX.length + 4,
      `Signature must be at most ${SIGNATURE_MAX_BYTES / 1000} kB`,
    ),
});
export type ApprovalAnswer = z.output<typeof approvalAnswerBody>;

/** The signature's PNG bytes, or null when the data URL holds no PNG. */
export function signaturePng(dataUrl: string): Uint8Array | null {
  const b64 = dataUrl.slice(SIGNATURE_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return null;
  const bin = atob(b64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const magic = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return bytes.length > magic.length && magic.every((b, i) => bytes[i] === b) ? bytes : null;
}

/** A line on the wire: amounts in currency units. */
export const ApprovalLineRecord = z.object({
  key: z.string(),
  kind: z.enum(['dent', 'scratch', 'tyre', 'product']),
  label: z.string(),
  repair_type: z.string(),
  /** A pdr dent line's level; absent from answers stored before it was kept. */
  category: z.string().nullish(),
  amount: z.number(),
  panel_id: z.number().nullable(),
  car_panel: z.string().nullable(),
  dents: z.record(z.string(), z.number()),
  scratchs: z.record(z.string(), z.number()),
  decision: z.enum(LINE_ANSWERS).nullable(),
  reason: z.string().nullable(),
  images: z.array(z.string()).describe("The panel's damage images (links valid for the page's session)"),
  /** A supplement's unchanged line: the customer's earlier answer carries over and it is not asked again (read-only). */
  carried: z.boolean(),
  /** A supplement's line new since the revision sent before it. */
  added: z.boolean(),
  /** A supplement's changed line: its work and amount in the revision sent before it; null otherwise. */
  before: z.object({ repair_type: z.string(), category: z.string().nullish(), amount: z.number() }).nullable(),
});
export type ApprovalLineRecord = z.infer<typeof ApprovalLineRecord>;

/** How a supplement's line differs from the revision sent before it (`added`, or its work and amount before). */
export interface LineChange {
  added: boolean;
  before: { repair_type: string; category?: string | null; amount: number } | null;
}

export const lineRecordOf = (
  l: ApprovalLine,
  answer?: { decision: ApprovalDecision; reason?: string | null },
  images: string[] = [],
  carried = false,
  change: LineChange = { added: false, before: null },
): ApprovalLineRecord => ({
  ...l,
  amount: centsToAmount(l.amount),
  decision: answer?.decision ?? null,
  reason: answer?.reason ?? null,
  images,
  carried,
  added: change.added,
  before: change.before && { ...change.before, amount: centsToAmount(change.before.amount) },
});

/** The earlier answers a supplement's link carries over, by line key. */
export type CarriedAnswers = Record<string, { decision: ApprovalDecision; reason: string | null }>;

/** What a link's page shows: `open` (to answer), `answered` (read-only), or why it no longer opens. */
export const APPROVAL_STATES = ['open', 'answered', 'expired', 'revoked'] as const;

/** GET approvals/{token}: the page. An ended link carries only the agent's contact. */
export const ApprovalPageRecord = z.object({
  state: z.enum(APPROVAL_STATES),
  agent: z.object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    logo: z.string().nullable(),
    language: z.string().nullable(),
  }),
  quote: z
    .object({
      id: z.number(),
      /** The revision the link asks about: 0 the original estimate, n the supplement Sn. */
      revision: z.number().int(),
      currency: z.string(),
      registration: z.string().nullable(),
      make: z.string().nullable(),
      model: z.string().nullable(),
      client_name: z.string().nullable(),
      expires_at: z.string(),
      gst_percent: z.number(),
      sub_total: z.number(),
      tax: z.number(),
      grand_total: z.number(),
      lines: z.array(ApprovalLineRecord),
      /** A supplement's lines that the revision sent before it had and it has not: shown, not asked about. */
      removed: z.array(ApprovalLineRecord.pick({ key: true, kind: true, label: true, repair_type: true, category: true, amount: true })),
      terms: z.string().describe('The application setting TERMS_AND_CONDITIONS (sanitised HTML)'),
    })
    .nullable(),
  answer: z
    .object({
      status: z.enum(['approved', 'partially_approved', 'declined']),
      signer_name: z.string(),
      decided_at: z.string(),
      approved_total: z.number(),
    })
    .nullable(),
});
export type ApprovalPageRecord = z.infer<typeof ApprovalPageRecord>;

/** The quote's latest link as Quote Generation shows it (never the token). */
export const QuoteApprovalRecord = z.object({
  id: z.number(),
  /** The revision the link asks about: 0 the original estimate, n the supplement Sn. */
  revision: z.number().int(),
  recipient: z.string(),
  sent_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  decided_at: z.string().nullable(),
  signer_name: z.string().nullable(),
  approved_total: z.number().nullable(),
  signed_pdf_url: z.string().nullable(),
});
export type QuoteApprovalRecord = z.infer<typeof QuoteApprovalRecord>;
