import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inputSchema } from '../../../src/domain/fields';
import { OptionBulkSaveBody, optionFields, OptionSearchBody } from '../../../src/domain/options';
import { NotFoundError } from '../../errors';
import { callerOf } from '../../lib/caller';
import { savedAtOf } from '../../lib/resource-routes';
import { dataReply, pageReply, recordErrors } from '../../lib/replies';
import { ListQuery } from '../../lib/resource';
import { definition as appSettings } from '../../../src/resources/app-settings/definition';
import type { optionsService } from './options-service';

export const OptionRecord = z.object({
  id: z.number(),
  option_name: z.string(),
  option_value: z.string(),
  field_type: z.string(),
  created_at: z.date(),
  updated_at: z.date(),
});

const MODEL = 'Option';
const tags = ['Option'];

const parseId = (raw: string) => {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError(MODEL, raw);
  return Number(raw);
};

/**
 * Application settings: a paged list and an edit form, no create or delete from the API;
 * the terms dialog reads TERMS_AND_CONDITIONS through options/search, the Email Header & Footer page
 * saves through options/bulksave.
 */
export async function optionRoutes(app: FastifyInstance, opts: { options: ReturnType<typeof optionsService> }) {
  const { options } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { permission } = appSettings;
  const sortable = [...appSettings.sortable];
  const UpdateBody = inputSchema(optionFields, 'update');

  r.get(
    '/options',
    {
      config: { access: { permission } },
      schema: {
        tags,
        summary: 'Page of application settings',
        querystring: ListQuery(sortable),
        response: { 200: pageReply(OptionRecord), ...recordErrors },
      },
    },
    async (req) => options.page(req.query),
  );

  r.get(
    '/options/:id',
    {
      config: { access: { permission } },
      schema: {
        tags,
        summary: 'One application setting',
        params: z.object({ id: z.string() }),
        response: { 200: dataReply(OptionRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await options.find(parseId(req.params.id)) }),
  );

  r.put(
    '/options/:id',
    {
      // Settings apply to every agent and client: `app_setting` (beside the `user` that shows them) and a Super Admin's scope.
      config: { access: { permission: 'app_setting', unrestricted: true } },
      schema: {
        tags,
        summary: "Update a setting's value (its field type is fixed)",
        params: z.object({ id: z.string() }),
        body: UpdateBody,
        response: { 200: dataReply(OptionRecord), ...recordErrors, 409: recordErrors[422] },
      },
    },
    async (req) => ({
      data: await options.update(parseId(req.params.id), String(req.body.option_value), savedAtOf(req.headers['if-match'])),
    }),
  );

  // Any signed-in user: the terms dialog shows TERMS_AND_CONDITIONS to everyone; settings hold no secrets.
  r.post(
    '/options/search',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Settings by upper-case name',
        body: OptionSearchBody,
        response: { 200: dataReply(z.array(OptionRecord)), ...recordErrors },
      },
    },
    async (req) => ({ data: await options.byName(req.body.option_name) }),
  );

  r.post(
    '/options/bulksave',
    {
      config: { access: { permission: 'email_template', unrestricted: true } },
      schema: {
        tags,
        summary: 'Save several settings at once, all or nothing (Email Header & Footer)',
        body: OptionBulkSaveBody,
        response: { 200: dataReply(z.array(OptionRecord)), ...recordErrors, 409: recordErrors[422] },
      },
    },
    async (req) => ({ data: await options.saveMany(callerOf(req), req.body, savedAtOf(req.headers['if-match'])) }),
  );
}
