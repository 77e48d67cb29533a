import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, SaveButton, useDataProvider, useNotify, useTranslate, type Validator } from 'react-admin';
import { PageLoading } from '../../components/PageLoading';
import { FormDraft } from '../../components/FormDraft';
import { FormLeaveGuard } from '../../components/useLeaveGuard';
import { RichTextInput } from '../../components/RichTextInput';
import { translatableRule } from '../../i18n/ruleMessages';
import { useNotifyError, type FormValues } from '../../components/useNotifyError';
import type { AppDataProvider, Option } from '../../dataProvider';
import { newestSaveOf } from '../../dataProvider/calls/options';
import { OPTION_NAMES, optionValueError } from '../../domain/options';
import { dataScope, isUnrestricted } from '../../domain/permissions';
import { useCurrentUser } from '../../session';

/** The two settings this page edits, with the label each one's messages use ('Header is required'). */
const EDITORS = [
  { name: OPTION_NAMES.EMAIL_DEFAULT_HEADER, english: 'Header', label: 'app.email_header_footer.header' },
  { name: OPTION_NAMES.EMAIL_DEFAULT_FOOTER, english: 'Footer', label: 'app.email_header_footer.footer' },
] as const;

const QUERY_KEY = ['options', 'email-header-footer'];

/** The domain's rule (blank editor markup counts as blank), in the user's language. */
function useValidators(): Record<string, Validator> {
  const translate = useTranslate();
  return useMemo(
    () =>
      Object.fromEntries(
        EDITORS.map(({ name, english, label }) => {
          const validate = (value: unknown) => {
            const error = optionValueError(name, typeof value === 'string' ? value : '', 'editor', english);
            return error ? translatableRule(error, translate(label)) : undefined;
          };
          return [name, Object.assign(validate, { isRequired: true })];
        }),
      ),
    [translate],
  );
}

const valuesOf = (options: Option[]) =>
  Object.fromEntries(EDITORS.map(({ name }) => [name, options.find((o) => o.option_name === name)?.option_value ?? '']));

/** The two editors over the loaded values; saving sends both (all or nothing on the server). */
const HeaderFooterForm = ({ options }: { options: Option[] }) => {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const validators = useValidators();
  const translate = useTranslate();
  // Every mail of every agent carries them: only an unrestricted scope changes them (the server refuses others).
  const user = useCurrentUser();
  const canChange = !!user && isUnrestricted(dataScope(user));
  // The values as first loaded, then as last saved here: a later refetch must not reset what is being typed, and a
  // save resets the form to what it saved, so only what is typed after it counts as unsaved.
  const [defaultValues, setDefaultValues] = useState(() => valuesOf(options));
  // The copies the form's text started from (then this page's own last save): another editor's save since is refused.
  const savedAt = useRef(newestSaveOf(options));
  const save = useMutation({
    mutationFn: (values: FormValues) =>
      dataProvider.saveEmailDefaults(
        EDITORS.map(({ name }) => ({ option_name: name, option_value: typeof values[name] === 'string' ? values[name] : '' })),
        savedAt.current,
      ),
  });

  const submit = async (values: FormValues) => {
    try {
      const saved = await save.mutateAsync(values);
      savedAt.current = newestSaveOf(saved);
      queryClient.setQueryData(QUERY_KEY, saved);
      setDefaultValues(valuesOf(saved));
      notify('app.email_header_footer.updated', { type: 'success' });
    } catch (error) {
      // A 422 comes back keyed by option name, so its message shows under that editor.
      return notifyError(error);
    }
  };

  return (
    <Form
      onSubmit={submit}
      defaultValues={defaultValues}
      noValidate
      disableInvalidFormNotification
      warnWhenUnsavedChanges
      WarnWhenUnsavedChangesComponent={FormLeaveGuard}
    >
      <FormDraft />
      {EDITORS.map(({ name, label }) => (
        <RichTextInput key={name} source={name} label={label} validate={validators[name]} readOnly={!canChange} />
      ))}
      <Box sx={{ mt: 1 }}>
        {canChange ? (
          <SaveButton label="app.crud.submit" alwaysEnable={!save.isPending} />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {translate('app.email_header_footer.read_only')}
          </Typography>
        )}
      </Box>
    </Form>
  );
};

/**
 * Email Header & Footer: loads both settings with `POST options/search`, saves them with
 * `POST options/bulksave` ('Email Header & Footer Updated Successfully'); both are required.
 */
export const EmailHeaderFooterPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifyError = useNotifyError();
  const { data, error } = useQuery({
    queryKey: QUERY_KEY,
    queryFn: () => dataProvider.searchOptions(EDITORS.map((e) => e.name)),
  });
  useEffect(() => {
    if (error) notifyError(error);
  }, [error, notifyError]);

  return (
    <Card sx={{ maxWidth: 960 }}>
      <CardContent>
        <Typography variant="h6" component="h1" sx={{ mb: 2 }}>
          {translate('app.email_header_footer.title')}
        </Typography>
        {data ? <HeaderFooterForm options={data} /> : !error && <PageLoading />}
      </CardContent>
    </Card>
  );
};
