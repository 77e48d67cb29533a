import { type RawBuilder, sql } from 'kysely';
import type { ApprovalStatistics } from '../../../src/domain/dashboard';
import type { DataScope } from '../../../src/domain/permissions';
import type { ApprovalStatisticsQuery } from '../../../src/domain/quotes';
import { isDateOnly } from '../../../src/domain/scans';
import { DISPLAY_TIME_ZONE } from '../../../src/domain/format';
import type { Executor } from '../../db/database';
import { idArray, type ScopeRule, scopePredicate } from '../../lib/resource';

const hasOffset = (s: string) => /(Z|[+-]\d{2}:?\d{2})$/.test(s);
/** A start bound: an instant as given, or a Melbourne wall-clock time (a date: its midnight). */
const start = (s: string) =>
  hasOffset(s) ? sql`${s}::timestamptz` : sql`(${s.replace('T', ' ')}::timestamp at time zone ${DISPLAY_TIME_ZONE})`;
/** An inclusive end bound as the exclusive instant after it: a date includes its whole Melbourne day, a time its second. */
const endExclusive = (s: string) =>
  isDateOnly(s) ? sql`((${s}::date + 1)::timestamp at time zone ${DISPLAY_TIME_ZONE})` : sql`(${start(s)} + '1 second'::interval)`;

/** A link is scoped like its quote: it carries the quote's agent and client (migration 033). */
const linkScope: ScopeRule = {
  agent: (ids) => sql<boolean>`a.agent_id = any(${idArray(ids)})`,
  client: (ids) => sql<boolean>`a.client_id = any(${idArray(ids)})`,
};

/**
 * The approval figures of the links sent in the range, in the caller's scope (the quote's agent or client) and the
 * filters (the quote's agent and client, the scan's location), all read from the link itself (migration 033 keeps them
 * and the outcome of its stored decisions: none declined is approved, none approved is declined, else partially approved).
 */
export async function approvalStatistics(db: Executor, scope: DataScope, f: ApprovalStatisticsQuery): Promise<ApprovalStatistics> {
  const where: RawBuilder<boolean>[] = [scopePredicate(scope, linkScope)];
  if (f.agent_id !== undefined) where.push(sql<boolean>`a.agent_id = ${f.agent_id}`);
  if (f.client_id !== undefined) where.push(sql<boolean>`a.client_id = ${f.client_id}`);
  if (f.location_id !== undefined) where.push(sql<boolean>`a.location_id = ${f.location_id}`);
  if (f.ts) where.push(sql<boolean>`a.sent_at >= ${start(f.ts)}`);
  if (f.td) where.push(sql<boolean>`a.sent_at < ${endExclusive(f.td)}`);
  const r = await sql<{
    sent: number;
    approved: number;
    partially_approved: number;
    declined: number;
    expired: number;
    scan: [number, number] | null;
    send: [number, number] | null;
  }>`
    with l as (
      select a.sent_at, a.decided_at, a.scanned_at,
        case
          when a.decided_at is null then case when a.revoked_at is null and a.expires_at <= now() then 'expired' end
          else a.outcome
        end as outcome
      from quote_approvals a
      where ${sql.join(where, sql` and `)}
    )
    select count(*)::int as sent,
      count(*) filter (where outcome = 'approved')::int as approved,
      count(*) filter (where outcome = 'partially_approved')::int as partially_approved,
      count(*) filter (where outcome = 'declined')::int as declined,
      count(*) filter (where outcome = 'expired')::int as expired,
      -- Both percentiles of a duration from one sort of it.
      percentile_cont(array[0.5, 0.9]) within group (order by extract(epoch from decided_at - scanned_at))
        filter (where outcome in ('approved', 'partially_approved')) as scan,
      percentile_cont(array[0.5, 0.9]) within group (order by extract(epoch from decided_at - sent_at))
        filter (where outcome in ('approved', 'partially_approved')) as send
    from l`.execute(db);
  const row = r.rows[0];
  const seconds = (v: number | null) => (v === null ? null : Math.round(Number(v)));
  return {
    sent: row.sent,
    approved: row.approved,
    partially_approved: row.partially_approved,
    declined: row.declined,
    expired: row.expired,
    scan_to_approval: { median_seconds: seconds(row.scan?.[0] ?? null), p90_seconds: seconds(row.scan?.[1] ?? null) },
    send_to_approval: { median_seconds: seconds(row.send?.[0] ?? null), p90_seconds: seconds(row.send?.[1] ?? null) },
  };
}
