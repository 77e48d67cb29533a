import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PlateLookupRecord, PlateSuggestionRecord } from '../../../src/domain/records';
import { RESOURCES } from '../../../src/domain/resources';
import { PLATE_SEARCH_LIMIT } from '../../../src/domain/scan-codes';
import { plateFetchParams, plateFetchQuery, plateSearchBody } from '../../../src/domain/scans';
import { NotFoundError } from '../../errors';
import { dataReply, ErrorReply, recordErrors } from '../../lib/replies';
import type { PlateLookupProvider } from './plate-lookup';

/** The model's 404 for a plate the look-up does not know. */
export const REGISTRATION_MODEL = 'Registration';
const providerErrors = { 502: ErrorReply, 504: ErrorReply };

/** The plate autocomplete and fetch of the scan page, permission `scan`; registrations are not scoped. */
export function plateRoutes(app: FastifyInstance, opts: { plates: PlateLookupProvider }, done: () => void) {
  const { plates } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Scan'];
  const access = { permission: RESOURCES.scans.permission };
  const failure =
    'A failing look-up service is 502, one that does not answer within PLATE_LOOKUP_TIMEOUT_MS 504, each with a message saying so.';

  r.post(
    '/license-plates/search',
    {
      config: { access },
      schema: {
        tags,
        summary: `Registrations starting with the text typed (at most ${PLATE_SEARCH_LIMIT})`,
        description: `number: the prefix; spaces and dashes are ignored and letters upper-cased. ${failure}`,
        body: plateSearchBody.meta({ example: { number: '1ab' } }),
        response: { 200: dataReply(z.array(PlateSuggestionRecord)), ...recordErrors, ...providerErrors },
      },
    },
    async (req) => ({ data: await plates.search(req.body.number, PLATE_SEARCH_LIMIT) }),
  );

  r.get(
    '/license-plates/fetch/:number',
    {
      config: { access },
      schema: {
        tags,
        summary: "A registration's vehicle: colour, body type, make, model and valuation",
        description: `state (ACT, NSW, NT, QLD, SA, TAS, VIC, WA) narrows it; an unknown plate is the model's 404. ${failure}`,
        params: plateFetchParams,
        querystring: plateFetchQuery,
        response: { 200: dataReply(PlateLookupRecord), ...recordErrors, ...providerErrors },
      },
    },
    async (req) => {
      const found = await plates.fetch(req.params.number, req.query.state);
      if (!found) throw new NotFoundError(REGISTRATION_MODEL, req.params.number);
      return { data: found };
    },
  );
  done();
}
