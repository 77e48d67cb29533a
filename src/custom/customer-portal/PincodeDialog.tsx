import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslate } from 'react-admin';

interface PincodeDialogProps {
  open: boolean;
  /** i18n key of the title ('Code Validation', or the kiosk enrolment). */
  title: string;
  /** i18n key of a line under the title. */
  text?: string;
  /** Checks the pincode: resolves with an i18n message (and its values) to show under the field, or null when accepted. A refused pincode is cleared. */
  onSubmit: (pincode: string) => Promise<{ key: string; values?: Record<string, unknown> } | null>;
  /** Without it there is no Cancel (the kiosk cannot go on without enrolling). */
  onCancel?: () => void;
}

/** The portal's pincode dialog ('Code Validation'): a Pincode field, Submit and Cancel. */
export const PincodeDialog = ({ open, title, text, onSubmit, onCancel }: PincodeDialogProps) => {
  const translate = useTranslate();
  const [pincode, setPincode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const label = translate('app.portal.pincode');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!pincode.trim()) {
      setError(translate('app.validation.required', { field: label }));
      return;
    }
    setBusy(true);
    try {
      const refused = await onSubmit(pincode.trim());
      setError(refused ? translate(refused.key, refused.values) : null);
      setPincode('');
      if (refused) input.current?.focus();
    } catch {
      setError(translate('app.error.server'));
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    setPincode('');
    setError(null);
    onCancel?.();
  };

  return (
    <Dialog
      open={open}
      onClose={onCancel ? close : undefined}
      aria-labelledby="pincode-dialog-title"
      fullWidth
      maxWidth="xs"
      // The kiosk's one task here is typing the pincode.
      slotProps={{ transition: { onEntered: () => input.current?.focus() } }}
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle id="pincode-dialog-title">{translate(title)}</DialogTitle>
        <DialogContent>
          {text && <DialogContentText sx={{ mb: 2 }}>{translate(text)}</DialogContentText>}
          <TextField
            label={label}
            value={pincode}
            onChange={(e) => setPincode(e.target.value)}
            type="password"
            autoComplete="off"
            required
            fullWidth
            inputRef={input}
            error={!!error}
            helperText={error ?? ' '}
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 50 } }}
          />
        </DialogContent>
        <DialogActions>
          {onCancel && (
            <Button onClick={close} disabled={busy}>
              {translate('app.crud.cancel')}
            </Button>
          )}
          <Button type="submit" variant="contained" disabled={busy}>
            {translate('app.crud.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
