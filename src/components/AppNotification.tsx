import { useEffect } from 'react';
import { IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { Notification, useCloseNotification, useNotificationContext, useNotify, useTranslate } from 'react-admin';
import { TOAST_DURATION_MS } from '../config';
import { takePendingToast } from '../session/pendingToast';
import { useSessionEnd } from './useSessionEnd';

const CloseToast = () => {
  const close = useCloseNotification();
  const translate = useTranslate();
  // A newer message (the next action's outcome) waits in react-admin's queue: the one showing gives way to it at once
  // rather than holding it back for up to 10 s.
  const waiting = useNotificationContext().notifications.length;
  useEffect(() => {
    if (waiting > 0) close();
  }, [waiting, close]);
  return (
    <IconButton size="small" color="inherit" onClick={close} aria-label={translate('ra.action.close')}>
      <CloseIcon fontSize="small" />
    </IconButton>
  );
};

/** Shows the success toast a page left for after its reload (e.g. 'Impersonated Successfully'). */
function usePendingToast() {
  const notify = useNotify();
  useEffect(() => {
    const message = takePendingToast();
    if (message) notify(message, { type: 'success' });
  }, [notify]);
}

/**
 * Top right, 10 s, closed by a click or its close button, or by the next message; server texts keep their line breaks.
 * Mounted wherever the app is, it also signs out when the server ends the session.
 */
export const AppNotification = () => {
  usePendingToast();
  useSessionEnd();
  return (
    <Notification
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      autoHideDuration={TOAST_DURATION_MS}
      action={<CloseToast />}
      sx={{ '& .MuiSnackbarContent-message': { whiteSpace: 'pre-line' } }}
    />
  );
};
