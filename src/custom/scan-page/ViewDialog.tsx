import type { ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, type DialogProps } from '@mui/material';
import { useTranslate } from 'react-admin';

/** A dialog that only shows something about the scan: its title, the content and Close. */
export const ViewDialog = ({
  id,
  title,
  maxWidth,
  dividers,
  onClose,
  children,
}: {
  /** The title's id, which names the dialog. */
  id: string;
  title: ReactNode;
  maxWidth: DialogProps['maxWidth'];
  dividers?: boolean;
  onClose: () => void;
  children: ReactNode;
}) => {
  const translate = useTranslate();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth={maxWidth} aria-labelledby={id}>
      <DialogTitle id={id}>{title}</DialogTitle>
      <DialogContent dividers={dividers}>{children}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('app.scanPage.modal.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};
