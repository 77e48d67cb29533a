import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Chip, Stack, Typography } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import { useDataProvider, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { Confirm } from '../../components/Confirm';
import { CopyButton } from '../../components/CopyButton';
import { useNotifyError } from '../../components/useNotifyError';
import type { AppDataProvider } from '../../dataProvider';
import type { FormScreenMode } from '../types';
import type { User } from '../../domain/records';

/**
 * `GET users/{id}/apikey` makes a new key for the device ingestion API. The server keeps
 * only its hash, so the key is shown here once, with a copy button; the previous key stops working, so replacing
 * one asks first (a scanner using it would be cut off).
 */
export const ApiKeyChip = () => {
  const translate = useTranslate();
  const record = useRecordContext<User>();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const [token, setToken] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const copyButton = useRef<HTMLButtonElement>(null);
  // The chip is disabled while the key is made, which drops the focus to the page's start: it goes on to the key's
  // Copy button, the next thing to do with a key shown once.
  useEffect(() => {
    if (token) copyButton.current?.focus();
  }, [token]);
  if (!record) return null;

  const generate = async () => {
    setConfirming(false);
    setPending(true);
    try {
      const reply = await dataProvider.newApiKey(record.id);
      if (typeof reply?.token !== 'string') throw new Error('The reply carries no token');
      setToken(reply.token);
      notify('resources.users.api_key.generated', { type: 'success' });
    } catch (error) {
      notifyError(error);
    } finally {
      setPending(false);
    }
  };

  const hasKey = token !== null || record.has_api_key === true;
  return (
    <Box component="section" aria-labelledby="api-key-title" sx={{ width: '100%', mt: 1, mb: 2 }}>
      <Typography id="api-key-title" variant="subtitle2" component="h2" gutterBottom>
        {translate('resources.users.api_key.title')}
      </Typography>
      <Stack direction="row" useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <Chip
          icon={<KeyIcon />}
          label={translate(hasKey ? 'resources.users.api_key.regenerate' : 'resources.users.api_key.generate')}
          color="primary"
          variant="outlined"
          onClick={pending ? undefined : () => (hasKey ? setConfirming(true) : void generate())}
          disabled={pending}
        />
        <Typography variant="body2" color="text.secondary">
          {translate(hasKey ? 'resources.users.api_key.has_key' : 'resources.users.api_key.no_key')}
        </Typography>
      </Stack>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
        {translate('resources.users.api_key.replaces')}
      </Typography>
      <Confirm
        isOpen={confirming}
        title="app.safe_edits.api_key_title"
        content="app.safe_edits.api_key_body"
        confirm="app.safe_edits.api_key_confirm"
        confirmColor="warning"
        onConfirm={() => void generate()}
        onClose={() => setConfirming(false)}
      />
      {token && (
        <Alert severity="warning" sx={{ mt: 1, '& .MuiAlert-message': { minWidth: 0, flex: 1 } }}>
          <Typography variant="body2" gutterBottom>
            {translate('resources.users.api_key.once')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}>
            <Box
              component="code"
              data-testid="api-key"
              sx={{
                fontFamily: 'monospace',
                fontSize: 13,
                wordBreak: 'break-all',
                bgcolor: 'background.paper',
                px: 1,
                py: 0.5,
                borderRadius: 1,
                flex: 1,
              }}
            >
              {token}
            </Box>
            <CopyButton text={token} ref={copyButton} />
          </Stack>
        </Alert>
      )}
    </Box>
  );
};

/** What the user form adds below its inputs: the API key chip, for an existing user only. */
export const UserFormExtras = ({ mode }: { mode: FormScreenMode }) => (mode === 'edit' ? <ApiKeyChip /> : null);
