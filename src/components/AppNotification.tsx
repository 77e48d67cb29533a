import { IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { Notification, useCloseNotification, useTranslate } from 'react-admin';
import { TOAST_DURATION_MS } from '../config';

const CloseToast = () => {
  const close = useCloseNotification();
  const translate = useTranslate();
  return (
    <IconButton size="small" color="inherit" onClick={close} aria-label={translate('ra.action.close')}>
      <CloseIcon fontSize="small" />
    </IconButton>
  );
};

/** Spec 1 §2: top right, 10 s, closed by a click or its close button; server texts keep their line breaks. */
export const AppNotification = () => (
  <Notification
    anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
    autoHideDuration={TOAST_DURATION_MS}
    action={<CloseToast />}
    sx={{ '& .MuiSnackbarContent-message': { whiteSpace: 'pre-line' } }}
  />
);
