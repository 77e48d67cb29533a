import { type RawBuilder, sql } from 'kysely';
import type { ApprovalStatistics } from '../../../src/domain/dashboard';
import type { DataScope } from '../../../src/domain/permissions';
import type { ApprovalStatisticsQuery } from '../../../src/domain/quotes';
import { isDateOnly } from '../../../src/domain/scan-codes';
import { DISPLAY_TIME_ZONE } from '../../../src/domain/format';
import type { Executor } from '../../db/database';
import { type Bounds, cutDayPredicate, periodPredicate, rangeBuckets } from '../../lib/periods';
import { idArray, type ScopeRule, scopePredicate } from '../../lib/resource';

const hasOffset = (s: string) => /(Z|[+-]\d{2}:?\d{2})$/.test(s);
/** A start bound: an instant as given, or a Melbourne wall-clock time (a date: its midnight). */
const start = (s: string) =>
  hasOffset(s) ? sql`${s}::timestamptz` : sql`(${s.replace('T', ' ')}::timestamp at time zone ${DISPLAY_TIME_ZONE})`;
/** An inclusive end bound as the exclusive instant after it: a date includes its whole Melbourne day, a time its second. */
const endExclusive = (s: string) =>
  isDateOnly(s) ? sql`((${s}::date + 1)::timestamp at time zone ${DISPLAY_TIME_ZONE})` : sql`(${start(s)} + '1 second'::interval)`;

/** A link and its counts are scoped like its quote: they carry the quote's agent and client (migrations 033, 035). */
const figuresScope: ScopeRule = {
  agent: (ids) => sql<boolean>`agent_id = any(${idArray(ids)})`,
  client: (ids) => sql<boolean>`client_id = any(${idArray(ids)})`,
};

const ANSWERS = ['approved', 'partially_approved', 'declined'] as const;
const PERCENTILES = [0.5, 0.9] as const;

/**
 * The approval figures of the links sent in the range, in the caller's scope (the quote's agent or client) and the
 * filters (the quote's agent and client, the scan's location). The counts come from approval_stats (migration 035),
 * plus the links of a day a bound cuts; expired is the open links less those not yet past their date. Each percentile
 * is read at its rank along its duration's index (percentile_cont's interpolation between the two neighbours).
 */
export async function approvalStatistics(db: Executor, scope: DataScope, f: ApprovalStatisticsQuery): Promise<ApprovalStatistics> {
  const bounds: Bounds = { lo: f.ts ? start(f.ts) : null, hi: f.td ? endExclusive(f.td) : null };
  const filters: RawBuilder<boolean>[] = [scopePredicate(scope, figuresScope)];
  for (const column of ['agent_id', 'client_id', 'location_id'] as const) {
    const id = f[column];
    if (id !== undefined) filters.push(sql<boolean>`${sql.ref(column)} = ${id}`);
  }
  const links = [...filters];
  if (bounds.lo) links.push(sql<boolean>`sent_at >= ${bounds.lo}`);
  if (bounds.hi) links.push(sql<boolean>`sent_at < ${bounds.hi}`);
  const inLinks = sql.join(links, sql` and `);

  const buckets = await rangeBuckets(db, f, bounds);
  const counts: Record<string, number> = {};
  let notExpired = 0;
  if (buckets) {
    const parts: RawBuilder<unknown>[] = buckets.periods.map(
      (p) => sql`select state, n from approval_stats where ${periodPredicate(p)} and ${sql.join(filters, sql` and `)}`,
    );
    for (const cut of buckets.cutDays)
      parts.push(sql`select approval_state(outcome, revoked_at) as state, count(*) as n from quote_approvals
        where ${sql.join([...filters, cutDayPredicate(sql.ref('sent_at'), cut, bounds)], sql` and `)} group by 1`);
    const r = await sql<{ state: string | null; n: number }>`
      with f as (${sql.join(parts, sql` union all `)})
      select state, sum(n)::int as n from f group by state
      union all
      select null, count(*)::int from quote_approvals
      where decided_at is null and revoked_at is null and expires_at > now() and ${inLinks}`.execute(db);
    for (const row of r.rows) {
      if (row.state === null) notExpired = row.n;
      else counts[row.state] = row.n;
    }
  }
  const count = (state: string) => counts[state] ?? 0;
  const approvals = count('approved') + count('partially_approved');

  // Each percentile's two neighbours by rank (p × (n − 1) rounded down, and the next), walked from the nearer end.
  const ranks = PERCENTILES.map((p) => p * (approvals - 1));
  const around = (column: 'send_seconds' | 'scan_seconds', rank: number) => {
    const k = Math.floor(rank);
    const fromTop = k > (approvals - 1) / 2;
    return sql`array(select ${sql.ref(column)} from quote_approvals where ${sql.ref(column)} is not null and ${inLinks}
      order by ${sql.ref(column)} ${fromTop ? sql`desc` : sql`asc`} offset ${fromTop ? approvals - 2 - k : k} limit 2)`;
  };
  let durations: Record<string, number[]> = {};
  if (approvals > 0) {
    const columns = (['send_seconds', 'scan_seconds'] as const).flatMap((column) =>
      ranks.map((rank, i) => sql`${around(column, rank)} as ${sql.ref(`${column}_${i}`)}`),
    );
    durations = (await sql<Record<string, number[]>>`select ${sql.join(columns)}`.execute(db)).rows[0];
  }
  const figure = (column: 'send_seconds' | 'scan_seconds') => {
    const at = (i: number) => {
      const [a, b = a] = [...(durations[`${column}_${i}`] ?? [])].sort((x, y) => x - y);
      return a === undefined ? null : Math.round(a + (ranks[i] - Math.floor(ranks[i])) * (b - a));
    };
    return { median_seconds: at(0), p90_seconds: at(1) };
  };
  return {
    sent: ANSWERS.reduce((n, s) => n + count(s), 0) + count('open') + count('revoked'),
    approved: count('approved'),
    partially_approved: count('partially_approved'),
    declined: count('declined'),
    expired: count('open') - notExpired,
    scan_to_approval: figure('scan_seconds'),
    send_to_approval: figure('send_seconds'),
  };
}
