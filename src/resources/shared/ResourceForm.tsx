import { useEffect, useRef } from 'react';
import { Box, Button, Card, CardContent } from '@mui/material';
import {
  CanAccess,
  CreateBase,
  EditBase,
  LinkBase,
  SaveButton,
  SimpleForm,
  useCreatePath,
  useNotify,
  useParams,
  useRedirect,
  useSaveContext,
  useTranslate,
} from 'react-admin';
import { PageLoading } from '../../components/PageLoading';
import { RedirectHome } from '../../components/RequirePermission';
import { NOT_FOUND_REDIRECT_MS } from '../../config';
import { isRecordNotFound } from '../../dataProvider/errors';
import { useNotifyError } from '../../components/useNotifyError';
import type { ResourceDescription } from '../types';
import { FieldInput } from './FieldInput';
import { ResourceBreadcrumbs } from './ResourceBreadcrumbs';
import { toRequestBody } from './toRequestBody';
import { useResourceValidators } from './useResourceValidators';

const FormToolbar = ({ listPath }: { listPath: string }) => {
  const translate = useTranslate();
  // Enabled on a pristine form too: Submit is how the user learns what is required (spec 1 §5).
  const { saving } = useSaveContext();
  return (
    <Box sx={{ display: 'flex', gap: 1, px: 2, pb: 2 }}>
      <SaveButton label="app.crud.submit" alwaysEnable={!saving} />
      <Button component={LinkBase} to={listPath}>
        {translate('app.crud.cancel')}
      </Button>
    </Box>
  );
};

const FormBody = ({ description, mode }: { description: ResourceDescription; mode: 'create' | 'edit' }) => {
  const validators = useResourceValidators(description, mode === 'edit' ? 'update' : 'create');
  const listPath = useCreatePath()({ resource: description.name, type: 'list' });
  return (
    <Box>
      <ResourceBreadcrumbs description={description} current={description.breadcrumbs[mode]} />
      <Card sx={{ maxWidth: 720 }}>
        <CardContent sx={{ p: 0, '&:last-child': { pb: 0 } }}>
          <SimpleForm toolbar={<FormToolbar listPath={listPath} />} noValidate>
            {Object.entries(description.fields)
              .filter(([, spec]) => !spec.readOnly)
              .map(([source, spec]) => (
                <FieldInput key={source} source={source} spec={spec} validate={validators[source]} />
              ))}
          </SimpleForm>
        </CardContent>
      </Card>
    </Box>
  );
};

/** Spec 1 §8: a missing record shows '{Name} Not Found' and returns to the list after 300 ms. */
function useLoadErrorHandler(description: ResourceDescription) {
  const translate = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const redirect = useRedirect();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (error: unknown) => {
    if (!isRecordNotFound(error)) return void notifyError(error);
    const name = translate(`resources.${description.name}.name`, { smart_count: 1 });
    notify('app.error.record_not_found', { type: 'error', messageArgs: { name } });
    timer.current = setTimeout(() => redirect('list', description.name), NOT_FOUND_REDIRECT_MS);
  };
}

const FormView = ({ description, id }: { description: ResourceDescription; id: string | null }) => {
  const notify = useNotify();
  const redirect = useRedirect();
  const onLoadError = useLoadErrorHandler(description);
  const transform = (values: Record<string, unknown>) => toRequestBody(description.fields, values);
  const done = (message: string) => () => {
    notify(message, { type: 'success', messageArgs: { smart_count: 1 } });
    redirect('list', description.name);
  };

  if (id === null) {
    return (
      <CreateBase resource={description.name} transform={transform} mutationOptions={{ onSuccess: done('ra.notification.created') }}>
        <FormBody description={description} mode="create" />
      </CreateBase>
    );
  }
  return (
    <EditBase
      resource={description.name}
      id={id}
      mutationMode="pessimistic"
      transform={transform}
      mutationOptions={{ onSuccess: done('ra.notification.updated') }}
      queryOptions={{ onError: onLoadError }}
    >
      <FormBody description={description} mode="edit" />
    </EditBase>
  );
};

/** Create when the route id is 'create' (or absent), edit otherwise; both return to the list on save. */
export const ResourceForm = ({ description }: { description: ResourceDescription }) => {
  const { id } = useParams<{ id: string }>();
  const recordId = !id || id === 'create' ? null : id;
  return (
    <CanAccess resource={description.name} action={recordId === null ? 'create' : 'edit'} loading={<PageLoading />} accessDenied={<RedirectHome />}>
      <FormView description={description} id={recordId} />
    </CanAccess>
  );
};
