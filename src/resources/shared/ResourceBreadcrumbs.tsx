import { Breadcrumbs, Link, Typography } from '@mui/material';
import { LinkBase, useCreatePath, useTranslate } from 'react-admin';
import type { ResourceDescription } from '../types';

/** 'Locations > Create Location'; the list crumb links back. */
export const ResourceBreadcrumbs = ({ description, current }: { description: ResourceDescription; current?: string }) => {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const listLabel = translate(`resources.${description.name}.name`, { smart_count: 2 });
  return (
    <Breadcrumbs aria-label={translate('app.crud.breadcrumb')} separator=">" sx={{ mb: 2 }}>
      {current ? (
        <Link component={LinkBase} to={createPath({ resource: description.name, type: 'list' })} underline="hover" color="inherit">
          {listLabel}
        </Link>
      ) : (
        <Typography color="text.primary" component="h1" variant="h6">
          {listLabel}
        </Typography>
      )}
      {current && (
        <Typography color="text.primary" component="h1" variant="h6">
          {translate(current)}
        </Typography>
      )}
    </Breadcrumbs>
  );
};
