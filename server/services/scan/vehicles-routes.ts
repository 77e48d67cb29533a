import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RESOURCES } from '../../../src/domain/resources';
import { ScanComparisonRecord, VehicleDetailRecord, VehicleListQuery, VehicleRecord } from '../../../src/domain/vehicles';
import { TyreWearRecord } from '../../../src/domain/vehicles';
import { exportFormatField, reportLanguageField } from '../../../src/domain/scans';
import { callerOf } from '../../lib/caller';
import { REPORT_MAX_ROWS, REPORT_TTL_HOURS } from '../../lib/report-file';
import { FILE_LINK_MINUTES } from '../../lib/storage';
import { dataReply, pageReply, recordErrors } from '../../lib/replies';
import { parseIdOf, parseScanId } from './shared';
import { VEHICLE_MODEL, type vehicleRecords } from './vehicles-service';

const IdParams = z.object({ id: z.string() });

/** Vehicles and a scan's comparison with its vehicle's previous scan: read with `scan`, inside the caller's scans. */
export function vehicleRoutes(app: FastifyInstance, opts: { vehicles: ReturnType<typeof vehicleRecords> }, done: () => void) {
  const { vehicles } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Vehicle'];
  const access = { permission: RESOURCES.scans.permission };

  r.get(
    '/vehicles',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Page of vehicles, last seen first',
        description:
          'The vehicles with a scan in the caller’s scope. q: a registration or VIN prefix (case, spaces and dashes ignored); ' +
          'sort registration, make, model, first_seen or last_seen; order asc or desc.',
        querystring: VehicleListQuery,
        response: { 200: pageReply(VehicleRecord), ...recordErrors },
      },
    },
    async (req) => vehicles.list(callerOf(req), req.query),
  );

  r.get(
    '/vehicles/export-vehicle-report',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Export the searched vehicles as CSV or XLSX; replies the file URL',
        description:
          `Same search, order and scope as GET vehicles; format csv (default) or xlsx; lang en (default) or ja, the language of the headings. ` +
          `Replies {data: {url}}: a download link signed for this user, valid ${FILE_LINK_MINUTES} minutes; at most ${REPORT_MAX_ROWS} rows ` +
          `(first and last seen in Melbourne time); the file is removed ${REPORT_TTL_HOURS} hours later.`,
        querystring: VehicleListQuery.omit({ page: true, per_page: true }).extend({
          format: exportFormatField,
          lang: reportLanguageField,
          page: z.unknown().optional(),
          per_page: z.unknown().optional(),
        }),
        response: { 200: dataReply(z.object({ url: z.string() })), ...recordErrors },
      },
    },
    async (req) => ({ data: await vehicles.exportReport(callerOf(req), req.query) }),
  );

  r.get(
    '/vehicles/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'A vehicle with its history',
        description:
          'The timeline of its scans in the caller’s scope (each with its comparison summary and quotes), the damage counts of each ' +
          'scan per panel, and each wheel’s lowest tread depths with the wear projection (an estimate) to the legal minimum.',
        params: IdParams,
        response: { 200: dataReply(VehicleDetailRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await vehicles.detail(callerOf(req), parseIdOf(VEHICLE_MODEL, req.params.id)) }),
  );

  r.get(
    '/scans/:id/comparison',
    {
      config: { access },
      schema: {
        tags,
        summary: 'The scan compared with its vehicle’s previous scan',
        description:
          'Per panel, type and level: new, worsened, unchanged or gone, against the same vehicle’s previous scan of the same kind within ' +
          'VEHICLE_COMPARE_WINDOW_DAYS (default 180); data null when there is none.',
        params: IdParams,
        response: { 200: dataReply(ScanComparisonRecord.nullable()), ...recordErrors },
      },
    },
    async (req) => ({ data: await vehicles.comparison(callerOf(req), parseScanId(req.params.id)) }),
  );

  r.get(
    '/scans/:id/tyre-wear',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Tyre wear per wheel across the scan’s vehicle, up to the scan',
        description:
          'Each wheel’s lowest tread depth at each scan of the vehicle up to this one (those in the caller’s scope), the wear rate ' +
          '(mm per 10,000 km when every reading has an odometer figure, else per 30 days) and the projected day it reaches ' +
          'TYRE_LEGAL_MIN_MM (default 1.5 mm): an estimate, null with fewer than two readings since the last tyre change.',
        params: IdParams,
        response: { 200: dataReply(TyreWearRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await vehicles.tyreWear(callerOf(req), parseScanId(req.params.id)) }),
  );
  done();
}
