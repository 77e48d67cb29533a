import { type Kysely, sql, type Transaction } from 'kysely';
import { changedFields, type EventAction, type EventFields, EventRecord, type EventSubject } from '../../src/domain/history';
import type { DataScope } from '../../src/domain/permissions';
import type { DB } from '../db/schema';
import { idArray, scopePredicate } from './resource-description';

/** Who an event names: the acting user and, while a Super Admin impersonates them, that admin. Null: no user (the demo seed). */
export interface EventActor {
  id: number;
  first_name: string;
  last_name: string;
  impersonatorId?: number | null;
}

/** What changed: the subject (with its agent and client, the history's scope), the action and only the changed fields. */
export interface EventInput {
  subject: { kind: EventSubject; id: number; agent_id: number | null; client_id: number | null };
  action: EventAction;
  before?: EventFields;
  after?: EventFields;
}

/**
 * Records one event of a write. It takes the write's transaction, never a bare connection: the change and its event
 * commit or roll back together, so the history never tells of a change that did not happen.
 */
export async function recordEvent(trx: Transaction<DB>, actor: EventActor | null, e: EventInput) {
  await trx
    .insertInto('events')
    .values({
      actor_id: actor?.id ?? null,
      actor_name: actor ? `${actor.first_name} ${actor.last_name}`.trim() || null : null,
      admin_id: actor?.impersonatorId ?? null,
      subject_kind: e.subject.kind,
      subject_id: e.subject.id,
      action: e.action,
      before: JSON.stringify(e.before ?? {}),
      after: JSON.stringify(e.after ?? {}),
      agent_id: e.subject.agent_id,
      client_id: e.subject.client_id,
    })
    .execute();
}

/**
 * The recorder of one kind of subject: records an event of a scan or a quote (its id, agent and client) with the
 * fields compared before and after the write, keeping only those that changed.
 */
export const eventRecorder =
  (kind: EventSubject) =>
  (
    trx: Transaction<DB>,
    actor: EventActor | null,
    subject: { id: number; agent_id: number | null; client_id: number | null },
    action: EventAction,
    before: EventFields = {},
    after: EventFields = {},
  ) =>
    recordEvent(trx, actor, {
      subject: { kind, id: subject.id, agent_id: subject.agent_id, client_id: subject.client_id },
      action,
      ...changedFields(before, after),
    });

/** An event is as visible as its subject was when it happened: by the agent and client it held then. */
const eventScope = {
  agent: (ids: number[]) => sql<boolean>`e.agent_id = any(${idArray(ids)})`,
  client: (ids: number[]) => sql<boolean>`e.client_id = any(${idArray(ids)})`,
};

/**
 * A side of a client change as a reader restricted to some clients sees it: another client's id and name are left out,
 * so the client a scan came from (or went to) is not named to a client who never held it.
 */
function withinClients(fields: EventFields, clients: number[] | null): EventFields {
  const other = clients !== null && typeof fields.client_id === 'number' && !clients.includes(fields.client_id);
  return other ? { ...fields, client_id: null, client_name: null } : fields;
}

/** A subject's events the scope reaches, oldest first. */
export async function findEvents(db: Kysely<DB>, kind: EventSubject, id: number, scope: DataScope): Promise<EventRecord[]> {
  const r = await sql<Omit<EventRecord, 'at'> & { at: Date }>`select e.id, e.at, e.action, e.actor_id, e.actor_name,
      nullif(trim(a.first_name || ' ' || a.last_name), '') as admin_name, e.before, e.after
    from events e left join users a on a.id = e.admin_id
    where e.subject_kind = ${kind} and e.subject_id = ${id} and ${scopePredicate(scope, eventScope)}
    order by e.at, e.id`.execute(db);
  return r.rows.map((row) => ({
    ...row,
    at: row.at.toISOString(),
    before: withinClients(row.before, scope.clients),
    after: withinClients(row.after, scope.clients),
  }));
}
