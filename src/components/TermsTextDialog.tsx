import { useId } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { RichTextField, useDataProvider, useTranslate } from 'react-admin';
import type { AppDataProvider } from '../dataProvider';
import { OPTION_NAMES } from '../domain/option-fields';

/** The TERMS_AND_CONDITIONS setting (`POST options/search`), read only once the text is opened. */
function useTermsText(enabled: boolean) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: ['options', 'search', OPTION_NAMES.TERMS_AND_CONDITIONS],
    queryFn: async () => {
      const options = await dataProvider.searchOptions([OPTION_NAMES.TERMS_AND_CONDITIONS]);
      return options.find((o) => o.option_name === OPTION_NAMES.TERMS_AND_CONDITIONS)?.option_value ?? '';
    },
    enabled,
  });
}

/** The full Terms and Conditions in a dialog whose content scrolls; the setting's HTML is sanitised again here. */
export const TermsTextDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const translate = useTranslate();
  const titleId = useId();
  const { data, isError } = useTermsText(open);
  return (
    <Dialog open={open} onClose={onClose} scroll="paper" maxWidth="md" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{translate('app.dashboard.terms_title')}</DialogTitle>
      <DialogContent dividers tabIndex={0} data-testid="terms-text">
        {isError ? (
          <Alert severity="error">{translate('app.safe_edits.terms_failed')}</Alert>
        ) : data === undefined ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
            <CircularProgress size={24} />
          </Box>
        ) : data.trim() ? (
          <RichTextField record={{ id: OPTION_NAMES.TERMS_AND_CONDITIONS, text: data }} source="text" />
        ) : (
          translate('app.safe_edits.terms_missing')
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};
