import { sql } from 'kysely';
import type { SavedQuote } from '../../../src/domain/quote-model';
import type { QuoteStatus } from '../../../src/domain/quote-approval';
import type { Executor } from '../../db/database';

/** Every SQL statement of quote revisions (table quote_revisions, migration 031), each taking a connection or a transaction. */

export interface RevisionRow {
  number: number;
  quote: SavedQuote;
  grand_total: number;
  pdf_key: string | null;
  created_at: Date;
  /** The outcome of the revision's latest link: the answer, its end, or `sent` while it waits. */
  status: QuoteStatus;
  /** The customer's signed answer to the revision (its latest), when there is one. */
  signed_pdf_key: string | null;
}

export interface RevisionWrite {
  quoteId: number;
  number: number;
  /** The saved quote as its JSON writes it. */
  quote: SavedQuote;
  grandTotal: number;
  clientSnapshot: unknown;
  pdfKey: string | null;
  createdBy: number | null;
}

/** Freezes a revision; false when it was frozen already (a revision is sent again after a revocation or expiry). */
export async function insertRevision(trx: Executor, w: RevisionWrite) {
  const r = await sql`insert into quote_revisions (quote_id, number, quote, grand_total, client_snapshot, pdf_key, created_by)
    values (${w.quoteId}, ${w.number}, ${JSON.stringify(w.quote)}::jsonb, ${w.grandTotal}, ${JSON.stringify(w.clientSnapshot)}::jsonb,
      ${w.pdfKey}, ${w.createdBy})
    on conflict (quote_id, number) do nothing`.execute(trx);
  return Number(r.numAffectedRows ?? 0) > 0;
}

export async function revisionFrozen(db: Executor, quoteId: number, number: number) {
  const r = await sql`select 1 from quote_revisions where quote_id = ${quoteId} and number = ${number}`.execute(db);
  return r.rows.length > 0;
}

const revisionColumns = sql`r.number, r.quote, r.grand_total::float8 as grand_total, r.pdf_key, r.created_at,
  coalesce((select case
      when l.decided_at is not null then (case
        when not jsonb_path_exists(l.lines, '$[*] ? (@.decision == "declined")') then 'approved'
        when not jsonb_path_exists(l.lines, '$[*] ? (@.decision == "approved")') then 'declined'
        else 'partially_approved' end)
      when l.revoked_at is not null then 'revoked'
      when l.expired_at is not null or l.expires_at <= now() then 'expired'
      else 'sent' end
    from quote_approvals l where l.quote_id = r.quote_id and l.revision = r.number
    order by l.sent_at desc, l.id desc limit 1), 'sent') as status,
  (select l.signed_pdf_key from quote_approvals l where l.quote_id = r.quote_id and l.revision = r.number
    and l.signed_pdf_key is not null order by l.decided_at desc, l.id desc limit 1) as signed_pdf_key`;

/** The quote's frozen revisions, oldest first. */
export async function listRevisions(db: Executor, quoteId: number): Promise<RevisionRow[]> {
  const r = await sql<RevisionRow>`select ${revisionColumns} from quote_revisions r where r.quote_id = ${quoteId}
    order by r.number`.execute(db);
  return r.rows;
}

export async function findRevision(db: Executor, quoteId: number, number: number): Promise<RevisionRow | null> {
  const r = await sql<RevisionRow>`select ${revisionColumns} from quote_revisions r where r.quote_id = ${quoteId}
    and r.number = ${number}`.execute(db);
  return r.rows[0] ?? null;
}

/** The latest revision frozen before `number` (what a supplement is compared with), or null. */
export async function previousRevision(db: Executor, quoteId: number, number: number): Promise<RevisionRow | null> {
  const r = await sql<RevisionRow>`select ${revisionColumns} from quote_revisions r where r.quote_id = ${quoteId}
    and r.number < ${number} order by r.number desc limit 1`.execute(db);
  return r.rows[0] ?? null;
}

/** Starts the next supplement: the quote's revision moves on and it is a draft again. Returns the new revision. */
export async function startSupplement(trx: Executor, quoteId: number) {
  // After the latest frozen revision: a quote withdrawn back to an answered revision has later ones frozen already.
  const r = await sql<{ revision: number }>`update quotes q set revision = greatest(q.revision,
      (select max(r.number) from quote_revisions r where r.quote_id = q.id)) + 1, status = 'draft'
    where q.id = ${quoteId} returning q.revision`.execute(trx);
  return r.rows[0].revision;
}

/** Withdraws a draft supplement: the quote is the earlier revision again, with that revision's outcome as its status. */
export async function restoreRevision(trx: Executor, quoteId: number, revision: Pick<RevisionRow, 'number' | 'status'>) {
  await sql`update quotes set revision = ${revision.number}, status = ${revision.status} where id = ${quoteId}`.execute(trx);
}

/** The latest revision up to `number` that the customer answered, with its outcome; null when none was. */
export async function answeredRevision(db: Executor, quoteId: number, number: number): Promise<RevisionRow | null> {
  const earlier = await earlierAnswer(db, quoteId, number + 1);
  return earlier && findRevision(db, quoteId, earlier.revision);
}

/** The frozen PDFs of a quote's revisions (removed with the quote). */
export async function revisionPdfKeys(db: Executor, quoteId: number) {
  const r = await sql<{ pdf_key: string }>`select pdf_key from quote_revisions where quote_id = ${quoteId} and pdf_key is not null`.execute(
    db,
  );
  return r.rows.map((row) => row.pdf_key);
}

/**
 * The customer's latest answer to an earlier revision of the quote: its revision and decisions by line key, or null
 * when no earlier revision was answered.
 */
export async function earlierAnswer(db: Executor, quoteId: number, beforeRevision: number) {
  const r = await sql<{
    revision: number;
    lines: { key: string; decision: 'approved' | 'declined'; reason: string | null }[];
  }>`select l.revision, l.lines from quote_approvals l where l.quote_id = ${quoteId} and l.revision < ${beforeRevision}
      and l.decided_at is not null order by l.decided_at desc, l.id desc limit 1`.execute(db);
  return r.rows[0] ?? null;
}
