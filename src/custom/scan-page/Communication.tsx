import { useState } from 'react';
import { Box, Chip, MenuItem, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Form, SaveButton, TextInput, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { RichTextInput } from '../../components/RichTextInput';
import { useNotifyError, type FormValues } from '../../components/useNotifyError';
import type { AppDataProvider } from '../../dataProvider';
import { formatDateTime } from '../../domain/format';
import { fillTemplate, parseRecipients } from '../../domain/scan-view';
import { can } from '../../domain/permissions';
import { useCurrentUser } from '../../session';
import { Section } from './Section';
import { useScanPage } from './context';

/** What the mail attaches: the scan's own files by id (damage close-ups, saved images) or report path. */
type Attachment = { type: 'damage' | 'annotate'; id: number } | { type: 'report'; path: string };

const blank = (html: unknown) => typeof html !== 'string' || html.replace(/<[^>]*>|&nbsp;|\s/g, '') === '';

/** An optional template (`GET emailTemplates`) fills the subject and the message. */
const TemplateSelect = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { scan } = useScanPage();
  const { setValue } = useFormContext();
  const [chosen, setChosen] = useState('');
  const user = useCurrentUser();
  // Users without the templates permission write their mail themselves.
  const allowed = can(user, 'email_template');
  const templates = useQuery({
    enabled: allowed,
    queryKey: ['email-templates', 'scan-mail'],
    queryFn: () => dataProvider.emailTemplatesForMail(),
    retry: false,
    staleTime: 60_000,
  });
  if (!templates.data?.items.length) return null;
  const values = {
    registration: scan.licensePlate,
    location: scan.location_name,
    scan_date: formatDateTime(scan.timestamp, locale),
    client_name: scan.client_name,
    make: scan.make,
    model: scan.model,
  };
  return (
    <TextField
      select
      fullWidth
      size="small"
      label={translate('app.scanPage.mail.template')}
      value={chosen}
      onChange={(e) => {
        setChosen(e.target.value);
        const t = templates.data?.items.find((x) => String(x.id) === e.target.value);
        setValue('template_id', t?.id ?? '');
        if (!t) return;
        setValue('subject', fillTemplate(t.templateName, values, 'text'), { shouldDirty: true, shouldValidate: true });
        setValue('message', fillTemplate(t.templateBody, values, 'html'), { shouldDirty: true, shouldValidate: true });
      }}
      sx={{ mb: 2 }}
    >
      <MenuItem value="">{translate('app.scanPage.mail.no_template')}</MenuItem>
      {templates.data.items.map((t) => (
        <MenuItem key={t.id} value={String(t.id)}>
          {t.templateName}
        </MenuItem>
      ))}
    </TextField>
  );
};

/**
 * Communication: the send-mail form. Recipients (lower-cased, each a valid address), subject and message
 * required, the message rich text; the attachments are what the select modes picked (damage images, saved images,
 * report PDFs), sent as ids for the server to resolve from the scan's own files. `POST emails` → 'Mail Send'.
 */
export const Communication = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { scan, selection, clearSelection } = useScanPage();
  const [formKey, setFormKey] = useState(0);
  const m = (k: string, args?: Record<string, unknown>) => translate(`app.scanPage.mail.${k}`, args);
  const required = (field: string) => (v: unknown) => (typeof v === 'string' && v.trim() ? undefined : m('required', { field }));
  const recipients = (v: unknown) => {
    const { valid, invalid } = parseRecipients(typeof v === 'string' ? v : '');
    if (invalid.length) return m('recipients_invalid', { list: invalid.join(', ') });
    return valid.length ? undefined : m('required', { field: m('recipients') });
  };
  const attachments: Attachment[] = [
    ...[...selection.damages].map((id) => ({ type: 'damage' as const, id })),
    ...[...selection.annotates].map((id) => ({ type: 'annotate' as const, id })),
    ...[...selection.reports].map((path) => ({ type: 'report' as const, path })),
  ];

  const send = async (values: FormValues) => {
    try {
      await dataProvider.sendScanEmail({
        scan_id: scan.id,
        recipients: parseRecipients(typeof values.recipients === 'string' ? values.recipients : '').valid,
        subject: typeof values.subject === 'string' ? values.subject.trim() : '',
        message: values.message,
        template_id: values.template_id || undefined,
        // The scan's own stored files by name: the server resolves them, never a URL.
        attachments: attachments.map(pathOf).filter((p): p is string => !!p),
      });
      notify('app.scanPage.mail.sent', { type: 'success' });
      clearSelection();
      setFormKey((k) => k + 1);
      return undefined;
    } catch (error) {
      return notifyError(error);
    }
  };

  const pathOf = (a: Attachment) =>
    a.type === 'report'
      ? a.path
      : a.type === 'annotate'
        ? scan.annotates.find((x) => x.id === a.id)?.path
        : scan.damages.find((x) => x.id === a.id)?.path;
  const labelOf = (a: Attachment, i: number) => {
    if (a.type === 'report') return scan.report_pdfs.find((r) => r.path === a.path)?.label ?? a.path ?? '';
    if (a.type === 'annotate')
      return translate('app.scanPage.saved_images.image', { n: scan.annotates.findIndex((x) => x.id === a.id) + 1 });
    const d = scan.damages.find((x) => x.id === a.id);
    return d ? `${d.carPanel} ${translate(`app.scanPage.level.${d.level}`, { _: d.level })}` : String(i + 1);
  };

  return (
    <Section id="communication" title={m('title')}>
      <Form key={formKey} onSubmit={send} defaultValues={{ recipients: '', subject: '', message: '', template_id: '' }} noValidate>
        <TemplateSelect />
        <TextInput
          source="recipients"
          label={m('recipients')}
          helperText={m('recipients_helper')}
          validate={recipients}
          parse={(v: string) => v.toLowerCase()}
          fullWidth
        />
        <TextInput source="subject" label={m('subject')} validate={required(m('subject'))} fullWidth />
        <RichTextInput
          source="message"
          label={m('message')}
          validate={(v: unknown) => (blank(v) ? m('required', { field: m('message') }) : undefined)}
        />
        <Box sx={{ mt: 1, mb: 2 }}>
          <Typography variant="body2" color="text.secondary" component="h3" sx={{ mb: 0.5 }}>
            {m('attachments')}
          </Typography>
          {attachments.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {m('no_attachments')}
            </Typography>
          ) : (
            <Box
              component="ul"
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, listStyle: 'none', m: 0, p: 0 }}
              data-testid="mail-attachments"
            >
              {attachments.map((a, i) => (
                <li key={`${a.type}-${'id' in a ? a.id : a.path}`}>
                  <Chip size="small" label={labelOf(a, i)} />
                </li>
              ))}
            </Box>
          )}
        </Box>
        <SaveButton label={m('send')} icon={<span />} alwaysEnable />
      </Form>
    </Section>
  );
};
