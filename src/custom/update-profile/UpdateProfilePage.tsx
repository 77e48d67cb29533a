import { useState } from 'react';
import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { Form, LinkBase, PasswordInput, SaveButton, TextInput, useDataProvider, useNavigate, useNotify, useTranslate } from 'react-admin';
import { ProfileBody } from '../../domain/auth';
import { schemaErrors } from '../../components/schemaErrors';
import { useNotifyError, type FormValues } from '../../components/useNotifyError';
import { FormDraft } from '../../components/FormDraft';
import { FormLeaveGuard } from '../../components/useLeaveGuard';
import type { AppDataProvider } from '../../dataProvider';
import { mergeCurrentUser, useCurrentUser } from '../../session';

/** Never kept as a draft (src/components/FormDraft.tsx). */
const SECRETS = ['password', 'current_password'];

const LABELS = {
  first_name: 'app.profile.first_name',
  last_name: 'app.profile.last_name',
  email: 'app.profile.email',
  password: 'app.profile.password',
  current_password: 'app.profile.current_password',
};

/**
 * Update Profile, saved on the server; a new password or e-mail is sent with the current password (a new password
 * signs the user out everywhere else; the old e-mail address is told of a change).
 */
export const UpdateProfilePage = () => {
  const translate = useTranslate();
  const user = useCurrentUser();
  const dataProvider = useDataProvider<AppDataProvider>();
  const navigate = useNavigate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const [busy, setBusy] = useState(false);
  // Only the first render's values: a later storage update must not reset what the user is typing.
  const [defaultValues] = useState(() => ({
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    email: user?.email ?? '',
    password: '',
    current_password: '',
  }));
  const labels = Object.fromEntries(Object.entries(LABELS).map(([field, key]) => [field, translate(key)]));

  const emailChangedTo = (email: unknown) => typeof email === 'string' && email.toLowerCase() !== defaultValues.email.toLowerCase();
  // The server refuses a new e-mail without the current password; say so under the field before sending.
  const validate = (values: FormValues) => {
    const errors = schemaErrors(ProfileBody, values, labels);
    const emailChanged = emailChangedTo(values.email);
    if (emailChanged && !values.current_password && !errors.current_password)
      return { ...errors, current_password: translate('app.profile.current_password_required') };
    return errors;
  };

  const submit = async ({ first_name, last_name, email, password, current_password }: FormValues) => {
    setBusy(true);
    try {
      const emailChanged = emailChangedTo(email);
      const body = {
        first_name,
        last_name,
        email,
        ...(password ? { password } : {}),
        ...(password || emailChanged ? { current_password } : {}),
      };
      mergeCurrentUser(await dataProvider.updateProfile(body));
      notify('app.profile.updated', { type: 'success' });
      navigate('/');
    } catch (error) {
      return notifyError(error, LABELS);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card sx={{ maxWidth: 640 }}>
      <CardContent>
        <Typography variant="h6" component="h1" sx={{ mb: 2 }}>
          {translate('app.profile.title')}
        </Typography>
        <Form
          onSubmit={submit}
          defaultValues={defaultValues}
          validate={validate}
          noValidate
          disableInvalidFormNotification
          warnWhenUnsavedChanges
          WarnWhenUnsavedChangesComponent={FormLeaveGuard}
        >
          <FormDraft omit={SECRETS} />
          <Stack>
            <TextInput source="first_name" label={LABELS.first_name} autoComplete="given-name" />
            <TextInput source="last_name" label={LABELS.last_name} autoComplete="family-name" />
            <TextInput source="email" type="email" label={LABELS.email} autoComplete="email" />
            <PasswordInput source="password" label={LABELS.password} autoComplete="new-password" />
            <PasswordInput
              source="current_password"
              label={LABELS.current_password}
              helperText="app.profile.current_password_helper"
              autoComplete="current-password"
            />
          </Stack>
          <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
            <SaveButton label="app.crud.submit" alwaysEnable={!busy} />
            <Button component={LinkBase} to="/">
              {translate('app.crud.cancel')}
            </Button>
          </Box>
        </Form>
      </CardContent>
    </Card>
  );
};
