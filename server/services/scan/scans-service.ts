import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { inScope } from '../../../src/domain/permissions';
import type { ReportLanguage } from '../../../src/domain/report-labels';
import { type ExportFormat, manualScanFields, SCAN_VEHICLE_FIELDS, scanVehicleFields } from '../../../src/domain/scan-codes';
import { type scanUpdateBody } from '../../../src/domain/scans';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import type { Caller } from '../../lib/caller';
import { checkReferences } from '../../lib/resource';
import { REPORT_MAX_ROWS, storeReportFile } from '../../lib/report-file';
import { versionedWrite } from '../../lib/versions';
import { broadcastScan, queueScanEvent } from './events';
import { buildExport } from './export';
import { releaseFiles } from './files';
import { recordScanEvent, recordScanUpdate, scanCounts } from './history-service';
import { countUpTo, listScans, type ScanFilters, scanSelection } from './list-repository';
import {
  agentDefaultClient,
  deleteScanRows,
  findScanDetail,
  findScanItem,
  hasScanReport,
  insertManualScan,
  refreshCounts,
  updateScanColumns,
} from './scan-repository';
import type { ManualScanBody } from './schemas';
import { parseScanId, SCAN_MODEL, type ScanDeps, writeScanReport } from './shared';
import { linkScanVehicle, refreshComparisonsAround } from './vehicles-service';
import { scanVersion } from './version-repository';

/** Wire name -> column for the editable vehicle fields. */
const COLUMN: Record<string, string> = { licensePlate: 'license_plate', carColor: 'car_color' };

/** A scan the caller may see, as the list row or the whole record; else the model's 404. */
export function visibleScans(db: ScanDeps['db']) {
  const notFound = (id: number | string) => new NotFoundError(SCAN_MODEL, id);
  return {
    async detail(caller: Pick<Caller, 'scope'>, id: number) {
      const scan = await findScanDetail(db, id, caller.scope);
      if (!scan) throw notFound(id);
      return scan;
    },
    async item(caller: Pick<Caller, 'scope'>, id: number) {
      const item = await findScanItem(db, id, caller.scope);
      if (!item) throw notFound(id);
      return item;
    },
  };
}

/**
 * The scan list and records for a caller (their user, data scope and log): every method checks, writes in one
 * transaction with the webhooks queued in it, then broadcasts and (for uploaded scans) rewrites the report.
 */
export function scanRecords(deps: ScanDeps) {
  const { db, storage } = deps;
  const visible = visibleScans(db);

  return {
    async list(caller: Pick<Caller, 'scope'>, query: ScanFilters & { page: number; per_page: number }) {
      const { page, per_page, ...filters } = query;
      const { items, total, estimate } = await listScans(db, await scanSelection(db, caller.scope, filters), page, per_page);
      return { items, total, total_is_estimate: estimate };
    },

    /** Writes the filtered scans as a file (removed REPORT_TTL_HOURS later) and returns its URL. */
    async exportReport(caller: Pick<Caller, 'actor' | 'scope'>, query: ScanFilters & { format: ExportFormat; lang: ReportLanguage }) {
      // Paging parameters may come along (the list's query is reused); the selection reads only the filters.
      const { format, lang, ...filters } = query;
      const selection = await scanSelection(db, caller.scope, filters);
      if ((await countUpTo(db, selection, REPORT_MAX_ROWS)) > REPORT_MAX_ROWS)
        throw new ValidationError({ ts: `An export holds at most ${REPORT_MAX_ROWS.toLocaleString('en-AU')} scans: narrow the filters` });
      const file = await buildExport(db, selection, format, lang);
      return storeReportFile(deps, 'scan_exports', caller.actor.id, format, file);
    },

    detail: (caller: Pick<Caller, 'scope'>, rawId: string) => visible.detail(caller, parseScanId(rawId)),

    async update(caller: Caller, rawId: string, body: z.output<typeof scanUpdateBody>) {
      const id = parseScanId(rawId);
      const current = await visible.item(caller, id);
      const input = body as Record<string, unknown>;
      const columns: Record<string, unknown> = {};
      // Only what changes is written: a value the scan already holds leaves no event, no new version and no broadcast.
      for (const field of SCAN_VEHICLE_FIELDS)
        if (field in input && (input[field] ?? null) !== (current[field] ?? null)) columns[COLUMN[field] ?? field] = input[field] ?? null;
      if (Object.keys(columns).length) {
        const item = await db.transaction().execute(async (trx) => {
          // The client must be one the user may see, checked in the writing transaction; the scan's own may stay.
          await checkReferences(trx, { user: caller.actor, scope: caller.scope }, scanVehicleFields, input, {
            current: { client_id: current.client_id },
          });
          const expected = typeof input.version === 'number' ? input.version : undefined;
          await versionedWrite(trx, scanVersion(trx, id, expected, caller.actor.id), () => updateScanColumns(trx, id, columns));
          // A new registration or state may be another vehicle's; a new client changes whose comparisons the scan serves.
          if ('license_plate' in columns || 'location_state' in columns) await linkScanVehicle(trx, id);
          else if ('client_id' in columns && columns.client_id !== current.client_id) await refreshComparisonsAround(trx, id);
          // A Client user who moves a scan to a client outside their scope would lose it: refused, nothing kept.
          if (!(await findScanItem(trx, id, caller.scope))) throw new ForbiddenError();
          const item = await queueScanEvent(trx, 'updated', id);
          await recordScanUpdate(trx, caller.actor, current, item);
          return item;
        });
        if (current.status === 'uploaded') await writeScanReport(db, storage, id, caller.log);
        await broadcastScan(deps, 'updated', item);
      }
      return visible.detail(caller, id);
    },

    /** Deletes a scan with its rows, then the files no other scan uses. */
    async remove(caller: Pick<Caller, 'actor' | 'scope' | 'log'>, rawId: string) {
      const id = parseScanId(rawId);
      const item = await visible.item(caller, id);
      const keys = await db.transaction().execute(async (trx) => {
        await recordScanEvent(trx, caller.actor, item, 'scan.deleted');
        const linked = await deleteScanRows(trx, id);
        // Another DELETE got there first and answered 200: this one records nothing and is 404.
        if (linked === null) throw new NotFoundError(SCAN_MODEL, id);
        return linked;
      });
      await releaseFiles(db, storage, keys, caller.log);
      return item;
    },

    /** A manual scan: always type tire, status uploaded, with its report. */
    async createManual(caller: Caller, input: z.output<typeof ManualScanBody>) {
      // ManualScanBody checked them: agent_id a positive id, client_id one or absent, startTime a date or absent.
      const body = {
        agent_id: Number(input.agent_id),
        client_id: input.client_id == null ? null : Number(input.client_id),
        startTime: typeof input.startTime === 'string' ? input.startTime : null,
      };
      const { id, item } = await db.transaction().execute(async (trx) => {
        // The agent and the client must be ones the user may see: 422 on the field, nothing stored.
        await checkReferences(trx, { user: caller.actor, scope: caller.scope }, manualScanFields, {
          agent_id: body.agent_id,
          client_id: body.client_id,
        });
        const clientId = body.client_id ?? (await agentDefaultClient(trx, body.agent_id));
        // A defaulted client outside a Client user's scope would hide the scan from them: refused.
        if (!inScope(caller.scope, { agent_id: body.agent_id, client_id: clientId })) throw new ForbiddenError();
        const id = await insertManualScan(trx, {
          scan_id: randomUUID(),
          agent_id: body.agent_id,
          client_id: clientId,
          startTime: body.startTime,
        });
        await recordScanEvent(
          trx,
          caller.actor,
          { id, agent_id: body.agent_id, client_id: clientId },
          'scan.created',
          {},
          {
            agent_id: body.agent_id,
            client_id: clientId,
          },
        );
        return { id, item: await queueScanEvent(trx, 'created', id) };
      });
      // Every uploaded scan has its report, a manual one too (vehicle and client, no damage).
      await writeScanReport(db, storage, id, caller.log);
      await broadcastScan(deps, 'created', item);
      return visible.detail(caller, id);
    },

    /** Recounts the damage totals (news to webhooks and the live list only when they changed) and writes a missing report. */
    async refresh(caller: Pick<Caller, 'actor' | 'scope' | 'log'>, rawId: string) {
      const id = parseScanId(rawId);
      const item = await visible.item(caller, id);
      const changed = await db.transaction().execute(async (trx) => {
        const before = await scanCounts(trx, id);
        await refreshCounts(trx, id, false);
        const after = await scanCounts(trx, id);
        await recordScanEvent(trx, caller.actor, item, 'scan.refreshed', before, after);
        if (JSON.stringify(after) === JSON.stringify(before)) return null;
        await refreshComparisonsAround(trx, id);
        return queueScanEvent(trx, 'updated', id);
      });
      await broadcastScan(deps, 'updated', changed);
      if (item.status === 'uploaded' && !(await hasScanReport(db, id))) await writeScanReport(db, storage, id, caller.log);
      return visible.detail(caller, id);
    },
  };
}
