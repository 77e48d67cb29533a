import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Box, CircularProgress, FormHelperText, IconButton, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/Edit';
import { useTranslate } from 'react-admin';
import { useScanPage } from './context';

export interface InlineInputProps<T> {
  id: string;
  label: string;
  value: T;
  onChange: (value: T) => void;
  /** Enter in a text input saves. */
  onSubmit: () => void;
  disabled: boolean;
  /** Why the value cannot be saved (from `validate`); null when it can. The field shows it under the row. */
  error: string | null;
  /** The id of the text under the row (the error, or the input's `note`), for the input's aria-describedby. */
  describedBy: string | undefined;
  /** A note of the input's own under the row (a refused keystroke), or null; the error takes its place when there is one. */
  onNote: (note: string | null) => void;
}

interface InlineFieldProps<T> {
  /** The scan field it edits (a live update leaves it alone while editing). */
  name: string;
  label: string;
  /** What display mode shows ('' shows the "not set" text). */
  display: ReactNode;
  /** The value edit mode starts from. */
  initial: T;
  /** Renders the edit input (a render function: an input with hooks is rendered as its own component inside it). */
  input: (props: InlineInputProps<T>) => ReactNode;
  /** Saves; rejects when the save failed (the scan's value is already back). */
  save: (value: T) => Promise<void>;
  /** More buttons beside the pencil in display mode: they change the scan too, so they go with it. */
  actions?: ReactNode;
  /** Why a value cannot be saved, or null: a refused value is not saved and edit mode stays, with the reason. */
  validate?: (value: T) => string | null;
}

/**
 * Display mode, the pencil to edit, save commits, close (or Escape) goes back to the last saved value. Without
 * `scan_edit` only display mode (docs/ARCHITECTURE.md, "Access model").
 */
export function InlineField<T>({ name, label, display, initial, input, save, actions, validate }: InlineFieldProps<T>) {
  const translate = useTranslate();
  const { setEditing, canEditScan } = useScanPage();
  const inputId = useId();
  const [editing, setEditingState] = useState(false);
  const [draft, setDraft] = useState<T>(initial);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const message = error ?? note;
  const messageId = `${inputId}-message`;
  const pencil = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  // Edit mode puts the focus in its input; leaving it puts the focus back on the pencil, where the keyboard user was
  // (the input it held is gone, which would drop the focus to the page's start).
  useEffect(() => {
    if (editing) document.getElementById(inputId)?.focus();
    else if (wasEditing.current) pencil.current?.focus();
    wasEditing.current = editing;
  }, [editing, inputId]);
  const edit = (on: boolean) => {
    setNote(null);
    setEditingState(on);
    setEditing(name, on);
  };
  // Escape leaves edit mode without saving, unless an open list (autocomplete, select menu) took it to close itself.
  const cancelOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented || saving) return;
    event.preventDefault();
    edit(false);
  };
  const change = (value: T) => {
    setDraft(value);
    setError(null);
  };
  const submit = async () => {
    const refused = validate?.(draft) ?? null;
    setError(refused);
    if (refused) return;
    setSaving(true);
    try {
      await save(draft);
    } catch {
      // The hook has put the scan's value back and said why.
    } finally {
      setSaving(false);
      edit(false);
    }
  };
  const empty = display === '' || display === null || display === undefined;
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr auto', sm: '130px 1fr auto' },
        columnGap: 1,
        alignItems: 'center',
        py: 0.5,
        minHeight: 40,
      }}
    >
      <Typography
        variant="body2"
        color="text.secondary"
        component={editing ? 'label' : 'span'}
        htmlFor={editing ? inputId : undefined}
        sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' } }}
      >
        {label}
      </Typography>
      {editing ? (
        <>
          <Box sx={{ minWidth: 0 }} onKeyDown={cancelOnEscape}>
            {input({
              id: inputId,
              label,
              value: draft,
              onChange: change,
              onSubmit: () => void submit(),
              disabled: saving,
              error,
              describedBy: message ? messageId : undefined,
              onNote: setNote,
            })}
          </Box>
          <Box sx={{ display: 'flex', whiteSpace: 'nowrap' }}>
            <IconButton
              size="small"
              aria-label={translate('app.scanPage.save_field', { field: label })}
              onClick={() => void submit()}
              disabled={saving}
            >
              {saving ? <CircularProgress size={18} /> : <CheckIcon fontSize="small" />}
            </IconButton>
            <IconButton
              size="small"
              aria-label={translate('app.scanPage.cancel_field', { field: label })}
              onClick={() => edit(false)}
              disabled={saving}
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          </Box>
          {/* The whole row's width: beside the label and the buttons a sentence would stand one word a line. */}
          {message && (
            <FormHelperText id={messageId} error={error !== null} sx={{ gridColumn: '1 / -1', mx: 0 }}>
              {message}
            </FormHelperText>
          )}
        </>
      ) : (
        <>
          <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere', minWidth: 0 }} data-field={name}>
            {empty ? translate('app.scans.page.not_set') : display}
          </Typography>
          {canEditScan && (
            <Box sx={{ display: 'flex', whiteSpace: 'nowrap' }}>
              {actions}
              <IconButton
                ref={pencil}
                size="small"
                aria-label={translate('app.scanPage.edit_field', { field: label })}
                onClick={() => {
                  setDraft(initial);
                  setError(null);
                  edit(true);
                }}
              >
                <EditIcon fontSize="small" />
              </IconButton>
            </Box>
          )}
        </>
      )}
    </Box>
  );
}
