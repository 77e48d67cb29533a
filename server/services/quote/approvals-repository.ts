import { sql } from 'kysely';
import { OPTION_NAMES } from '../../../src/domain/options';
import { APPROVAL_DAYS_DEFAULT, type CarriedAnswers, type QuoteStatus } from '../../../src/domain/quote-approval';
import type { Executor } from '../../db/database';

/** Every SQL statement of approval links (table quote_approvals, migration 026), each taking a connection or a transaction. */

/** A link as the approval routes read it: never the token, only what its hash found. */
export interface ApprovalLinkRow {
  id: number;
  quote_id: number;
  recipient: string;
  sent_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  viewed_at: Date | null;
  expired_at: Date | null;
  decided_at: Date | null;
  lines:
    | {
        key: string;
        /** Absent from answers stored before it was kept (the key's prefix says it too). */
        kind?: string;
        label: string;
        repair_type: string;
        /** A pdr dent line's level; absent from answers stored before it was kept. */
        category?: string | null;
        amount: number;
        decision: 'approved' | 'declined';
        reason: string | null;
      }[]
    | null;
  approved_total: number | null;
  signer_name: string | null;
  signed_pdf_key: string | null;
  /** Whether this is the quote's latest link (only that one moves the quote's status). */
  latest: boolean;
  /** The revision of the quote it was sent for. */
  revision: number;
  /** A supplement's earlier answers carried over: those lines are not asked again. */
  carried: CarriedAnswers | null;
}

const linkColumns = sql`l.id, l.quote_id, l.recipient, l.sent_at, l.expires_at, l.revoked_at, l.viewed_at, l.expired_at,
  l.decided_at, l.lines, l.revision, l.carried, l.approved_total::float8 as approved_total, l.signer_name, l.signed_pdf_key,
  not exists (select 1 from quote_approvals n where n.quote_id = l.quote_id and (n.sent_at, n.id) > (l.sent_at, l.id)) as latest`;

/** The link whose token hashes to `hash` (an index look-up on the digest: no comparison of the token itself), locked for a write. */
export async function findLinkByHash(db: Executor, hash: string, lock = false): Promise<ApprovalLinkRow | null> {
  const r = await sql<ApprovalLinkRow>`select ${linkColumns} from quote_approvals l where l.token_hash = ${hash}
    ${lock ? sql`for update of l` : sql``}`.execute(db);
  return r.rows[0] ?? null;
}

/** The number of days a new link is valid: the application setting QUOTE_APPROVAL_DAYS, else the default. */
export async function approvalDays(db: Executor) {
  const r = await sql<{
    option_value: string;
  }>`select option_value from options where option_name = ${OPTION_NAMES.QUOTE_APPROVAL_DAYS}`.execute(db);
  const days = Number(r.rows[0]?.option_value);
  return Number.isInteger(days) && days >= 1 ? days : APPROVAL_DAYS_DEFAULT;
}

/** The terms the customer accepts (the application setting TERMS_AND_CONDITIONS, as stored: sanitised HTML). */
export async function termsText(db: Executor) {
  const r = await sql<{
    option_value: string;
  }>`select option_value from options where option_name = ${OPTION_NAMES.TERMS_AND_CONDITIONS}`.execute(db);
  return r.rows[0]?.option_value ?? '';
}

/** The approval mail's template body (by its seeded name), or null when it was removed. */
export async function approvalTemplate(db: Executor, name: string) {
  const r = await sql<{ template_body: string }>`select template_body from email_templates where template_name = ${name}
    order by id limit 1`.execute(db);
  return r.rows[0]?.template_body ?? null;
}

/** Locks the quote's row, so a send, a revocation and an answer on one quote run one after the other; its status. */
export async function lockQuoteStatus(trx: Executor, quoteId: number) {
  const r = await sql<{ status: QuoteStatus }>`select status from quotes where id = ${quoteId} for update`.execute(trx);
  return r.rows[0]?.status ?? null;
}

/**
 * The status alone: the figures did not change, so neither does the quote's version (what a save is checked against)
 * nor its `updated_at`, the estimate's date on its invoice and PDF (the answer's time is its link's and its event's).
 */
export async function setQuoteStatus(trx: Executor, quoteId: number, status: QuoteStatus) {
  await sql`update quotes set status = ${status} where id = ${quoteId}`.execute(trx);
}

/** Revokes the quote's links still open (not answered, revoked or past their date); how many. */
export async function revokeOpenLinks(trx: Executor, quoteId: number) {
  const r = await sql`update quote_approvals set revoked_at = now() where quote_id = ${quoteId} and revoked_at is null
    and decided_at is null and expires_at > now()`.execute(trx);
  return Number(r.numAffectedRows ?? 0);
}

export async function insertLink(
  trx: Executor,
  l: { quoteId: number; revision: number; carried: CarriedAnswers | null; hash: string; recipient: string; sentBy: number; days: number },
) {
  const r = await sql<{ id: number; expires_at: Date }>`insert into quote_approvals (quote_id, revision, carried, token_hash, recipient,
      sent_by, expires_at)
    values (${l.quoteId}, ${l.revision}, ${l.carried ? JSON.stringify(l.carried) : null}::jsonb, ${l.hash}, ${l.recipient}, ${l.sentBy},
      now() + make_interval(days => ${l.days}))
    returning id, expires_at`.execute(trx);
  return r.rows[0];
}

/** Marks the link opened; false when it had been already (so `quote.viewed` is sent once). */
export async function markViewed(trx: Executor, id: number) {
  const r = await sql`update quote_approvals set viewed_at = now() where id = ${id} and viewed_at is null`.execute(trx);
  return Number(r.numAffectedRows ?? 0) > 0;
}

/** Marks the link expired; false when it had been already (so the quote expires and `quote.expired` is sent once). */
export async function markExpired(trx: Executor, id: number) {
  const r = await sql`update quote_approvals set expired_at = now() where id = ${id} and expired_at is null`.execute(trx);
  return Number(r.numAffectedRows ?? 0) > 0;
}

export interface ApprovalAnswerRow {
  lines: NonNullable<ApprovalLinkRow['lines']>;
  approvedTotal: number;
  signerName: string;
  signature: Buffer;
  ip: string;
  userAgent: string | null;
}

export async function saveAnswer(trx: Executor, id: number, a: ApprovalAnswerRow) {
  const r = await sql<{ decided_at: Date }>`update quote_approvals set decided_at = now(), lines = ${JSON.stringify(a.lines)}::jsonb,
      approved_total = ${a.approvedTotal}, signer_name = ${a.signerName}, signature = ${a.signature}, ip_address = ${a.ip},
      user_agent = ${a.userAgent}
    where id = ${id} returning decided_at`.execute(trx);
  return r.rows[0].decided_at;
}

export async function setSignedPdf(db: Executor, id: number, key: string) {
  await sql`update quote_approvals set signed_pdf_key = ${key} where id = ${id}`.execute(db);
}

/** The damage images of a scan's panels, by car panel (the approval page's evidence). */
export async function panelImages(db: Executor, scanId: number) {
  const r = await sql<{ car_panel: string; image: string }>`select car_panel, image from scan_damages
    where scan_id = ${scanId} and image is not null order by car_panel, id`.execute(db);
  const out = new Map<string, string[]>();
  for (const row of r.rows) out.set(row.car_panel, [...(out.get(row.car_panel) ?? []), row.image]);
  return out;
}

/** The scan's valuation, which a live scan event carries as the scan list shows it. */
export async function scanValuation(db: Executor, scanId: number) {
  const r = await sql<{ valuation: number | string | null }>`select valuation from scans where id = ${scanId}`.execute(db);
  return r.rows[0]?.valuation ?? null;
}
