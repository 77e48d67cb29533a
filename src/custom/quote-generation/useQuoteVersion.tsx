import { type Dispatch, type SetStateAction, useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { ConflictDialog, conflictOf } from '../../components/ConflictDialog';
import { PresenceNotice } from '../../components/PresenceNotice';
import { usePresence } from '../../realtime';
import type { AppDataProvider } from '../../dataProvider';
import { type ConflictInfo, reapplyEdits } from '../../domain/versions';
import { type Evaluation, type SavedQuote, toSavedQuote } from './evaluation';
import { initialForm, type QuoteForm } from './quoteForm';

/**
 * The quote's version the form was made from (0: no quote yet), sent with the save; a save refused with 409 opens the
 * conflict dialog, whose Reload loads the current quote into the form and whose Re-apply puts the user's edits on it.
 * While `editing`, the page also says who else is editing this quote.
 */
export function useQuoteVersion(
  evaluation: Evaluation,
  saved: SavedQuote | null,
  form: QuoteForm,
  setForm: Dispatch<SetStateAction<QuoteForm>>,
  editing: boolean,
) {
  const editors = usePresence('quote', evaluation.scan.id, editing);
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [base, setBase] = useState(() => ({ form, version: saved?.version ?? 0 }));
  const [conflict, setConflict] = useState<ConflictInfo | null>(null);

  const resolve = async (reapply: boolean) => {
    setConflict(null);
    const current = toSavedQuote(await dataProvider.searchQuote(evaluation.scan.id));
    const theirs = initialForm(evaluation.panels, evaluation.measures, current);
    setForm(reapply ? reapplyEdits(base.form, form, theirs) : theirs);
    setBase({ form: theirs, version: current?.version ?? 0 });
    if (reapply) notify('app.conflicts.reapplied', { type: 'info' });
  };

  return {
    version: base.version,
    /** True when the error was a conflict, now shown in the dialog. */
    caught: (error: unknown) => {
      const found = conflictOf(error);
      if (found) setConflict(found);
      return found !== null;
    },
    /** Who else is editing this quote, and the conflict dialog. */
    dialog: (
      <>
        <PresenceNotice names={editors} record="quote" />
        <ConflictDialog
          conflict={conflict}
          record="quote"
          currency={saved?.currency ?? evaluation.client.currency}
          onReload={() => void resolve(false)}
          onReapply={() => void resolve(true)}
        />
      </>
    ),
  };
}
