import { sql } from 'kysely';
import type { DataScope } from '../../src/domain/permissions';
import type { Executor } from '../db/database';
import { idArray, type ScopeRule, scopePredicate } from './resource';

/** Scans carry their agent and client: an Agent user sees their agents' scans, a Client user their clients'. */
export const scanScope: ScopeRule = {
  agent: (ids) => sql<boolean>`s.agent_id = any(${idArray(ids)})`,
  client: (ids) => sql<boolean>`s.client_id = any(${idArray(ids)})`,
};

/** Quotes are scoped exactly like scans, by the quote's own agent and client (the files route reads it for quote PDFs). */
export const quoteScope: ScopeRule = {
  agent: (ids) => sql<boolean>`q.agent_id = any(${idArray(ids)})`,
  client: (ids) => sql<boolean>`q.client_id = any(${idArray(ids)})`,
};

/**
 * A scan the request's scope may see, by id (the scan service's rule, for other services acting on a scan: the mail
 * sent from the scan page). Null when there is none or it is outside the scope.
 */
export async function visibleScan(db: Executor, scope: DataScope, id: number) {
  const r = await sql<{
    id: number;
    scan_id: string;
    agent_id: number;
    client_id: number | null;
    license_plate: string | null;
  }>`select s.id, s.scan_id, s.agent_id, s.client_id, s.license_plate from scans s
    where s.id = ${id} and ${scopePredicate(scope, scanScope)}`.execute(db);
  return r.rows[0] ?? null;
}

/**
 * Which stored comparison of a scan a scope reads (docs/server.md, Vehicles): the one with the vehicle's previous scan
 * the scope is sure to see. Unrestricted: any previous scan; a scope of agents: the same agent's; of clients: the same
 * client's; of both: the same agent's and client's. A scan event, read by every viewer of the scan, carries `pair`.
 */
export type ComparisonBasis = 'all' | 'agent' | 'client' | 'pair';

export const comparisonBasis = (scope: DataScope | undefined): ComparisonBasis =>
  !scope ? 'pair' : scope.agents === null ? (scope.clients === null ? 'all' : 'client') : scope.clients === null ? 'agent' : 'pair';

/** The comparison row's flag for a basis, on the alias `k` unless named. */
export const comparisonFor = (basis: ComparisonBasis, alias = 'k') => sql<boolean>`${sql.ref(`${alias}.for_${basis}`)}`;

/**
 * A comparison row carries its scan's agent and client (migration 034): the scope's test on `k`, for its indexes. One
 * id is an equality, so the index hands its rows over in list order (a list of ids is read whole, then sorted).
 */
const oneOf = (column: string, ids: number[]) =>
  ids.length === 1 ? sql<boolean>`${sql.ref(column)} = ${ids[0]}` : sql<boolean>`${sql.ref(column)} = any(${idArray(ids)})`;
export const comparisonScope: ScopeRule = {
  agent: (ids) => oneOf('k.agent_id', ids),
  client: (ids) => oneOf('k.client_id', ids),
};
