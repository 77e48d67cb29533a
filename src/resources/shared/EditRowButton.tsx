import { IconButton, Tooltip } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import { LinkBase, useCreatePath, useRecordContext, useResourceContext, useTranslate } from 'react-admin';

/** Pencil icon to /{resource}/{id}. */
export const EditRowButton = () => {
  const translate = useTranslate();
  const record = useRecordContext();
  const resource = useResourceContext();
  const createPath = useCreatePath();
  if (!record || !resource) return null;
  return (
    <Tooltip title={translate('app.crud.edit')}>
      <IconButton
        size="small"
        color="primary"
        component={LinkBase}
        to={createPath({ resource, type: 'edit', id: record.id })}
        aria-label={translate('app.crud.edit')}
      >
        <EditIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
};
