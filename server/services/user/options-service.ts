import { OPTION_NAMES, optionValueError, treadOrderError } from '../../../src/domain/options';
import { can } from '../../../src/domain/permissions';
import type { Database, Executor } from '../../db/database';
import { messages } from '../../../src/domain/messages';
import { AppError, ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import type { Caller } from '../../lib/caller';
import type { PageQuery } from '../../lib/resource';
import { sanitizeRichText } from '../../lib/rich-text';
import { ensureEditorOption, findOptionById, findOptionsByName, optionPage, type OptionRow, setOptionValue } from './options-repository';

const MODEL = 'Option';
/** The Email Header & Footer page saves these two; they are created as editor options if missing. */
const EMAIL_DEFAULTS: readonly string[] = [OPTION_NAMES.EMAIL_DEFAULT_HEADER, OPTION_NAMES.EMAIL_DEFAULT_FOOTER];

/** Each tyre limit and the one it is kept in order with. */
const TREAD_PAIR: Record<string, string> = {
  [OPTION_NAMES.TYRE_LEGAL_MIN_MM]: OPTION_NAMES.TYRE_RECOMMENDED_MIN_MM,
  [OPTION_NAMES.TYRE_RECOMMENDED_MIN_MM]: OPTION_NAMES.TYRE_LEGAL_MIN_MM,
};

/**
 * A save made from a copy read at `savedAt` (If-Match) is refused when the newest of the saved settings is not that
 * copy: someone saved since, and the last save would undo theirs unseen. Without `savedAt` the last save wins.
 */
function checkUnchangedSince(rows: Pick<OptionRow, 'updated_at'>[], savedAt: Date | undefined) {
  if (!savedAt || rows.length === 0) return;
  const newest = Math.max(...rows.map((r) => r.updated_at.getTime()));
  if (newest !== savedAt.getTime()) throw new AppError(409, messages.savedSince());
}

/** The stored form of a value: HTML from an editor is sanitised, plain values trimmed of surrounding space. */
const storedValue = (value: string, fieldType: string) => (fieldType === 'editor' ? sanitizeRichText(value) : value.trim());

/** Checks and stores one option's value; the stored field type decides the rules. */
async function saveOption(db: Executor, row: Pick<OptionRow, 'id' | 'option_name' | 'field_type'>, value: string, errorKey: string) {
  const stored = storedValue(value, row.field_type);
  const error = optionValueError(row.option_name, stored, row.field_type);
  if (error) throw new ValidationError({ [errorKey]: error });
  const other = TREAD_PAIR[row.option_name];
  if (other) {
    const [storedOther] = await findOptionsByName(db, [other]);
    const order = treadOrderError(row.option_name, stored, storedOther?.option_value);
    if (order) throw new ValidationError({ [errorKey]: order });
  }
  return setOptionValue(db, row.id, stored);
}

/**
 * Application settings: a page and one setting, a value changed, settings read by name (the terms dialog) and saved
 * several at once, all or nothing (the Email Header & Footer page).
 */
export function optionsService(deps: { db: Database }) {
  const { db } = deps;
  const find = async (id: number) => {
    const row = await findOptionById(db, id);
    if (!row) throw new NotFoundError(MODEL, id);
    return row;
  };
  return {
    page: (q: PageQuery) => optionPage(db, q),
    find,
    async update(id: number, value: string, savedAt?: Date) {
      return db.transaction().execute(async (trx) => {
        const row = await findOptionById(trx, id, { forUpdate: true });
        if (!row) throw new NotFoundError(MODEL, id);
        checkUnchangedSince([row], savedAt);
        return saveOption(trx, row, value, 'option_value');
      });
    },
    byName: (names: string[]) => findOptionsByName(db, names),
    async saveMany(caller: Pick<Caller, 'actor'>, options: { option_name: string; option_value: string }[], savedAt?: Date) {
      const names = options.map((o) => o.option_name);
      if (new Set(names).size !== names.length) throw new ValidationError({ option_name: 'Each option may appear once.' });
      // email_template covers the e-mail defaults; any other setting is an application setting, which needs `app_setting`.
      const other = names.find((n) => !EMAIL_DEFAULTS.includes(n));
      if (other && !can(caller.actor, 'app_setting')) throw new ForbiddenError(`Saving ${other} needs the app_setting permission.`);
      return db.transaction().execute(async (trx) => {
        const existing = await findOptionsByName(trx, names, { forUpdate: true });
        checkUnchangedSince(existing, savedAt);
        const out: OptionRow[] = [];
        for (const { option_name, option_value } of options) {
          let row: Pick<OptionRow, 'id' | 'option_name' | 'field_type'> | undefined = existing.find((o) => o.option_name === option_name);
          if (!row && EMAIL_DEFAULTS.includes(option_name)) row = await ensureEditorOption(trx, option_name);
          if (!row) throw new ValidationError({ [option_name]: `${option_name} is not a setting.` });
          out.push(await saveOption(trx, row, option_value, option_name));
        }
        return out;
      });
    },
  };
}
