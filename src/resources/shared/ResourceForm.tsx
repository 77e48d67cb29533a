import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Button, Card, CardContent, Stack } from '@mui/material';
import {
  CanAccess,
  CreateBase,
  EditBase,
  LinkBase,
  Navigate,
  Form,
  SaveButton,
  TextInput,
  useCreatePath,
  useNotify,
  useParams,
  useRecordContext,
  useRedirect,
  useSaveContext,
  useTranslate,
} from 'react-admin';
import { PageLoading } from '../../components/PageLoading';
import { FormDraft } from '../../components/FormDraft';
import { FormLeaveGuard, UnsavedBesideProvider } from '../../components/useLeaveGuard';
import { RedirectHome } from '../../components/RequirePermission';
import { NOT_FOUND_REDIRECT_MS } from '../../config';
import { isRecordNotFound } from '../../dataProvider/errors';
import { useNotifyError } from '../../components/useNotifyError';
import type { ColumnDisplay, ResourceDescription } from '../types';
import { ConditionalInput } from './ConditionalInput';
import { FieldInput } from './FieldInput';
import { ResourceBreadcrumbs } from './ResourceBreadcrumbs';
import { toRequestBody } from './toRequestBody';
import { useResourceValidators } from './useResourceValidators';
import { FocusServerError } from './FocusServerError';

const FormToolbar = ({ listPath }: { listPath: string }) => {
  const translate = useTranslate();
  // Enabled on a pristine form too: Submit is how the user learns what is required.
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

/** A read-only field shown disabled, formatted as its list column is (form.readOnlyInputs); never sent. */
const ReadOnlyInput = ({ source, display }: { source: string; display?: ColumnDisplay }) => (
  <TextInput
    source={source}
    disabled
    multiline
    format={(value: unknown) =>
      typeof display === 'function' ? display(value) : typeof value === 'string' || typeof value === 'number' ? String(value) : ''
    }
  />
);

/** On create: each field's `default`, then the description's own initial values. */
const createDefaults = (description: ResourceDescription) => ({
  ...Object.fromEntries(
    Object.entries(description.fields).flatMap(([source, spec]) => (spec.default === undefined ? [] : [[source, spec.default]])),
  ),
  ...description.form?.createDefaults,
});

/**
 * The description with each field resolved from the edited record where the form says how (`form.fieldFor`);
 * such a field waits for the record, so its input does not change kind once the record arrives.
 */
function useRecordFields(description: ResourceDescription, mode: 'create' | 'edit'): ResourceDescription {
  const record = useRecordContext();
  const fieldFor = description.form?.fieldFor;
  return useMemo(() => {
    if (!fieldFor) return description;
    const fields = Object.entries(description.fields).flatMap(([source, spec]) => {
      const resolve = fieldFor[source];
      if (!resolve) return [[source, spec] as const];
      return mode === 'edit' && !record ? [] : [[source, resolve(spec, record)] as const];
    });
    return { ...description, fields: Object.fromEntries(fields) };
  }, [description, fieldFor, record, mode]);
}

const FormBody = ({ description: described, mode }: { description: ResourceDescription; mode: 'create' | 'edit' }) => {
  const translate = useTranslate();
  const description = useRecordFields(described, mode);
  const validators = useResourceValidators(description, mode === 'edit' ? 'update' : 'create');
  const listPath = useCreatePath()({ resource: description.name, type: 'list' });
  const { conditions, helperTexts, readOnlyInputs, extras: Extras, extrasBeside, below: Below } = description.form ?? {};
  const [defaultValues] = useState(() => (mode === 'create' ? createDefaults(description) : undefined));
  // A password or a pincode is never kept as a draft.
  const secrets = useMemo(
    () => Object.entries(description.fields).flatMap(([source, spec]) => (spec.type === 'secret' ? [source] : [])),
    [description],
  );
  const inputs = Object.entries(description.fields)
    .filter(([source, spec]) => !spec.readOnly || readOnlyInputs?.includes(source))
    .map(([source, spec]) => {
      if (spec.readOnly) return <ReadOnlyInput key={source} source={source} display={description.columnDisplay?.[source]} />;
      const help = helperTexts?.[source]?.[mode];
      const input = (
        <FieldInput
          key={source}
          source={source}
          spec={spec}
          validate={validators[source]}
          helperText={help && translate(help)}
          pickable={description.form?.offered?.[source]}
        />
      );
      const condition = conditions?.[source];
      return condition ? (
        <ConditionalInput key={source} source={source} spec={spec} condition={condition} mode={mode}>
          {input}
        </ConditionalInput>
      ) : (
        input
      );
    });
  return (
    <UnsavedBesideProvider>
      <Box>
        <ResourceBreadcrumbs description={description} current={description.breadcrumbs[mode]} />
        <Card sx={{ maxWidth: Extras && extrasBeside ? 1080 : 720 }}>
          <CardContent sx={{ p: 0, '&:last-child': { pb: 0 } }}>
            {/* Errors show under their inputs and the first one takes the focus; a toast would only delay the next one.
              SimpleForm's layout, written out: SimpleForm hands the form's own props on to its Stack as well. */}
            <Form
              noValidate
              defaultValues={defaultValues}
              disableInvalidFormNotification
              warnWhenUnsavedChanges
              WarnWhenUnsavedChangesComponent={FormLeaveGuard}
            >
              <FormDraft omit={secrets} waitForRecord={mode === 'edit'} />
              <CardContent sx={{ pb: { xs: '5em', sm: 2 } }}>
                <Stack sx={{ alignItems: 'flex-start' }}>
                  {Extras && extrasBeside ? (
                    <Box
                      sx={{
                        width: '100%',
                        display: 'grid',
                        gap: 3,
                        gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(260px, 320px)' },
                        alignItems: 'start',
                      }}
                    >
                      <Box sx={{ minWidth: 0 }}>{inputs}</Box>
                      <Extras mode={mode} />
                    </Box>
                  ) : (
                    <>
                      {inputs}
                      {Extras && <Extras mode={mode} />}
                    </>
                  )}
                  <FocusServerError />
                </Stack>
              </CardContent>
              <FormToolbar listPath={listPath} />
            </Form>
          </CardContent>
        </Card>
        {Below && mode === 'edit' && <Below />}
      </Box>
    </UnsavedBesideProvider>
  );
};

/** A missing record shows '{Name} Not Found' and returns to the list after 300 ms. */
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
      <CreateBase
        resource={description.name}
        transform={transform}
        mutationOptions={{ onSuccess: done(description.messages?.created ?? 'ra.notification.created') }}
      >
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
      mutationOptions={{ onSuccess: done(description.messages?.updated ?? 'ra.notification.updated') }}
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
  const listPath = useCreatePath()({ resource: description.name, type: 'list' });
  // A resource without create (application settings) has no /create screen: back to its list.
  if (recordId === null && description.actions?.create === false) return <Navigate to={listPath} replace />;
  return (
    <CanAccess
      resource={description.name}
      action={recordId === null ? 'create' : 'edit'}
      loading={<PageLoading />}
      accessDenied={<RedirectHome />}
    >
      <FormView description={description} id={recordId} />
    </CanAccess>
  );
};
