import { useState } from 'react';
import { DialogContentText, IconButton, Tooltip } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  useDelete,
  useGetRecordRepresentation,
  useNotify,
  useRecordContext,
  useRefresh,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { Confirm } from '../../components/Confirm';
import { useNotifyError } from '../../components/useNotifyError';
import type { ResourceDescription } from '../types';

/**
 * Trash icon asking 'are you sure ?'. On success the list reloads with 'Deleted Successfully' (or `message`);
 * on failure the dialog stays open and the error toast shows.
 */
export const DeleteRowButton = ({
  message = 'ra.notification.deleted',
  representation,
  deletable,
  notice,
}: {
  message?: string;
  /** The description's recordRepresentation: the dialog names the row (descriptions load lazily, after <Resource> is declared). */
  representation?: ResourceDescription['recordRepresentation'];
  /** Rows the server refuses to delete (a user's own account) offer no trash icon. */
  deletable?: ResourceDescription['deletable'];
  /** A line under the row's name saying what else the delete does. */
  notice?: ResourceDescription['deleteNotice'];
}) => {
  const translate = useTranslate();
  const record = useRecordContext();
  const resource = useResourceContext();
  const represent = useGetRecordRepresentation(resource);
  const [open, setOpen] = useState(false);
  const [deleteOne, { isPending }] = useDelete();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const refresh = useRefresh();
  if (!record || !resource || (deletable && !deletable(record))) return null;
  const name =
    typeof representation === 'function'
      ? representation(record)
      : representation
        ? String(record[representation] ?? '')
        : represent(record);
  const said = notice?.(record);

  // Without returnPromise, deleteOne reports through onSuccess/onError and its promise never rejects.
  const confirm = () =>
    void deleteOne(
      resource,
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify(message, { type: 'success', messageArgs: { smart_count: 1 } });
          refresh();
        },
        onError: (error: unknown) => notifyError(error),
      },
    );

  return (
    <>
      <Tooltip title={translate('app.crud.delete')}>
        <IconButton size="small" color="error" onClick={() => setOpen(true)} aria-label={translate('app.crud.delete')}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Confirm
        isOpen={open}
        loading={isPending}
        title="app.crud.delete_title"
        content={
          said ? (
            <>
              <DialogContentText>{name}</DialogContentText>
              <DialogContentText sx={{ mt: 1 }}>{translate(said.message, said.args)}</DialogContentText>
            </>
          ) : (
            name
          )
        }
        cancel="app.crud.delete_cancel"
        confirm="app.crud.delete_confirm"
        confirmColor="warning"
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
};
