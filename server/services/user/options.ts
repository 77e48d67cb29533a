import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { inputSchema } from '../../../src/domain/fields';
import { OPTION_NAMES, OptionBulkSaveBody, optionFields, OptionSearchBody, optionValueError } from '../../../src/domain/options';
import { can } from '../../../src/domain/permissions';
import type { Executor } from '../../db/database';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import { dataReply, pageReply, recordErrors } from '../../lib/replies';
import { ListQuery } from '../../lib/resource';
import { sanitizeRichText } from '../../lib/rich-text';
import { definition as appSettings } from '../../../src/resources/app-settings/definition';

export const OptionRecord = z.object({
  id: z.number(),
  option_name: z.string(),
  option_value: z.string(),
  field_type: z.string(),
  created_at: z.date(),
  updated_at: z.date(),
});
type OptionRow = z.infer<typeof OptionRecord>;

const MODEL = 'Option';
const tags = ['Option'];
/** The Email Header & Footer page saves these two; they are created as editor options if missing. */
const EMAIL_DEFAULTS: readonly string[] = [OPTION_NAMES.EMAIL_DEFAULT_HEADER, OPTION_NAMES.EMAIL_DEFAULT_FOOTER];

/** The stored form of a value: HTML from an editor is sanitised, plain values trimmed of surrounding space. */
const storedValue = (value: string, fieldType: string) => (fieldType === 'editor' ? sanitizeRichText(value) : value.trim());

/** Checks and stores one option's value; the stored field type decides the rules. */
async function saveOption(db: Executor, row: Pick<OptionRow, 'id' | 'option_name' | 'field_type'>, value: string, errorKey: string) {
  const stored = storedValue(value, row.field_type);
  const error = optionValueError(row.option_name, stored, row.field_type);
  if (error) throw new ValidationError({ [errorKey]: error });
  return db
    .updateTable('options')
    .set({ option_value: stored, updated_at: new Date() })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Application settings: a paged list and an edit form, no create or delete from the API;
 * the terms dialog reads TERMS_AND_CONDITIONS through options/search, the Email Header & Footer page
 * saves through options/bulksave.
 */
export async function optionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { permission } = appSettings;
  const sortable = [...appSettings.sortable];
  const UpdateBody = inputSchema(optionFields, 'update');

  const findOption = async (raw: string) => {
    if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError(MODEL, raw);
    const row = await app.db.selectFrom('options').selectAll().where('id', '=', Number(raw)).executeTakeFirst();
    if (!row) throw new NotFoundError(MODEL, raw);
    return row;
  };

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
    async (req) => {
      const { page, per_page, q, sort, order } = req.query;
      // Names are shown with spaces for underscores, so 'terms and' finds TERMS_AND_CONDITIONS.
      const like = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : '';
      const search = q ? sql`where option_name ilike ${like} or replace(option_name, '_', ' ') ilike ${like}` : sql``;
      const dir = order === 'desc' ? sql`desc` : sql`asc`;
      const [rows, count] = await Promise.all([
        sql<OptionRow>`select * from options ${search} order by ${sql.ref(sort ?? 'option_name')} ${dir}, id ${dir}
        limit ${per_page} offset ${(page - 1) * per_page}`.execute(app.db),
        sql<{ total: number }>`select count(*)::int as total from options ${search}`.execute(app.db),
      ]);
      return { items: rows.rows, total: count.rows[0].total };
    },
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
    async (req) => ({ data: await findOption(req.params.id) }),
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
        response: { 200: dataReply(OptionRecord), ...recordErrors },
      },
    },
    async (req) => {
      const row = await findOption(req.params.id);
      return { data: await saveOption(app.db, row, String(req.body.option_value), 'option_value') };
    },
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
    async (req) => {
      const rows = await app.db
        .selectFrom('options')
        .selectAll()
        .where('option_name', 'in', req.body.option_name)
        .orderBy('option_name')
        .execute();
      return { data: rows };
    },
  );

  r.post(
    '/options/bulksave',
    {
      config: { access: { permission: 'email_template', unrestricted: true } },
      schema: {
        tags,
        summary: 'Save several settings at once, all or nothing (Email Header & Footer)',
        body: OptionBulkSaveBody,
        response: { 200: dataReply(z.array(OptionRecord)), ...recordErrors },
      },
    },
    async (req) => {
      const names = req.body.map((o) => o.option_name);
      if (new Set(names).size !== names.length) throw new ValidationError({ option_name: 'Each option may appear once.' });
      // email_template covers the e-mail defaults; any other setting is an application setting, which needs `app_setting`.
      const other = names.find((n) => !EMAIL_DEFAULTS.includes(n));
      if (other && !can(req.user, 'app_setting')) throw new ForbiddenError(`Saving ${other} needs the app_setting permission.`);
      const saved = await app.db.transaction().execute(async (trx) => {
        const existing = await trx.selectFrom('options').selectAll().where('option_name', 'in', names).forUpdate().execute();
        const out: OptionRow[] = [];
        for (const { option_name, option_value } of req.body) {
          let row: Pick<OptionRow, 'id' | 'option_name' | 'field_type'> | undefined = existing.find((o) => o.option_name === option_name);
          if (!row && EMAIL_DEFAULTS.includes(option_name)) {
            row =
              (await trx
                .insertInto('options')
                .values({ option_name, option_value: '', field_type: 'editor' })
                .onConflict((oc) => oc.column('option_name').doNothing())
                .returningAll()
                .executeTakeFirst()) ??
              (await trx.selectFrom('options').selectAll().where('option_name', '=', option_name).executeTakeFirstOrThrow());
          }
          if (!row) throw new ValidationError({ [option_name]: `${option_name} is not a setting.` });
          out.push(await saveOption(trx, row, option_value, option_name));
        }
        return out;
      });
      return { data: saved };
    },
  );
}
