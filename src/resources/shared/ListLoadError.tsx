import { Alert, Button } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { SERVER_ERROR } from '../../dataProvider/errors';

/**
 * What a list shows when its page fails to load: the reason and Try again, instead of an empty table saying 'No …
 * found' beside the last page's count.
 */
export const ListLoadError = () => {
  const translate = useTranslate();
  const { error, refetch } = useListContext();
  // The data provider's message: the server's words, or the key of a generic one (a 5xx, a lost connection).
  const message = error instanceof Error && error.message ? error.message : SERVER_ERROR;
  const reason = translate(message, { _: message });
  return (
    <Alert
      severity="error"
      sx={{ my: 2 }}
      action={
        <Button color="inherit" size="small" onClick={() => void refetch()}>
          {translate('app.crud.retry')}
        </Button>
      }
    >
      {translate('app.crud.load_failed', { error: reason })}
    </Alert>
  );
};
