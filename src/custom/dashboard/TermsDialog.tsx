import { memo, useState } from 'react';
import { Box, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel } from '@mui/material';
import { useDataProvider, useTranslate } from 'react-admin';
import { TermsLink } from '../../components/TermsLink';
import { useMountedInTransition } from '../../components/useMountedInTransition';
import { useNotifyError } from '../../components/useNotifyError';
import type { AppDataProvider } from '../../dataProvider';
import { mergeCurrentUser, useCurrentUser, useImpersonatedUser } from '../../session';

/**
 * Persistent (no onClose, so Escape and the backdrop do nothing) until accepted; saved on the server.
 * Not while impersonating: an admin cannot consent for someone else, and the dialog would hide Leave Impersonate.
 */
export const TermsDialog = memo(function TermsDialog() {
  const translate = useTranslate();
  const user = useCurrentUser();
  const impersonating = useImpersonatedUser() !== null;
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifyError = useNotifyError();
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  // The dialog (modal, focus trap, backdrop) opens through a transition, not in the dashboard's first render, which
  // react-admin's permission check makes a synchronous one (main-thread blocking time); being fixed, it moves nothing.
  const ready = useMountedInTransition();

  const accept = async () => {
    setBusy(true);
    try {
      mergeCurrentUser(await dataProvider.acceptTerms());
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={ready && !!user && user.consent === 0 && !impersonating} aria-labelledby="terms-dialog-title">
      <DialogTitle id="terms-dialog-title">{translate('app.dashboard.terms_title')}</DialogTitle>
      <DialogContent>
        <Box sx={{ mb: 1 }}>
          <TermsLink label="app.safe_edits.terms_read" />
        </Box>
        <FormControlLabel
          control={<Checkbox checked={agreed} onChange={(event) => setAgreed(event.target.checked)} />}
          label={translate('app.dashboard.terms_agree')}
        />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={() => void accept()} disabled={!agreed || busy}>
          {translate('app.dashboard.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
});
