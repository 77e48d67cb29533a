import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Form, SaveButton, TextInput, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { FormDraft } from '../../components/FormDraft';
import { RichTextInput } from '../../components/RichTextInput';
import { FormLeaveGuard } from '../../components/useLeaveGuard';
import { WhenNear } from '../../components/WhenNear';
import { useNotifyError, type FormValues } from '../../components/useNotifyError';
import type { AppDataProvider } from '../../dataProvider';
import { fieldErrorsOf } from '../../dataProvider/errors';
import { panelLabels } from '../../domain/damage-images';
import type { MailPreview } from '../../domain/records';
import { attachmentFileNames, damageAttachmentName, reportAttachmentName, savedImageAttachmentName } from '../../domain/scan-mail';
import { panelLabelOf, parseRecipients } from '../../domain/scan-view';
import { templateFitsMail } from '../../domain/merge-fields';
import { can } from '../../domain/permissions';
import { useCurrentUser } from '../../session';
import { Section } from './Section';
import { useScanPage } from './context';
import { useArchData } from './useArchData';

/** What the mail attaches: the scan's own files by id (damage close-ups, saved images) or report path. */
type Attachment = { type: 'damage' | 'annotate'; id: number } | { type: 'report'; path: string };

const blank = (html: unknown) => typeof html !== 'string' || html.replace(/<[^>]*>|&nbsp;|\s/g, '') === '';

/**
 * An optional template (`GET emailTemplates`) gives the subject (its name) and the message (its body), merge fields
 * and all: the server fills them from the scan, and the preview shows the result.
 */
const TemplateSelect = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
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
  // A template naming what a scan cannot fill (the approval request's link and total) could never be sent from here.
  const usable = templates.data?.items.filter((t) => templateFitsMail(t, 'scan')) ?? [];
  if (!usable.length) return null;
  return (
    <TextField
      select
      fullWidth
      size="small"
      label={translate('app.scanPage.mail.template')}
      value={chosen}
      onChange={(e) => {
        setChosen(e.target.value);
        const t = usable.find((x) => String(x.id) === e.target.value);
        setValue('template_id', t?.id ?? '');
        if (!t) return;
        setValue('subject', t.templateName, { shouldDirty: true, shouldValidate: true });
        setValue('message', t.templateBody, { shouldDirty: true, shouldValidate: true });
      }}
      sx={{ mb: 2 }}
    >
      <MenuItem value="">{translate('app.scanPage.mail.no_template')}</MenuItem>
      {usable.map((t) => (
        <MenuItem key={t.id} value={String(t.id)}>
          {t.templateName}
        </MenuItem>
      ))}
    </TextField>
  );
};

type MailBody = {
  scan_id: number;
  recipients: string[];
  subject: string;
  message: unknown;
  template_id?: unknown;
  attachments: string[];
};

/**
 * The mail exactly as the server would send it (`POST emails/preview`): subject, header + message + footer with the
 * merge fields filled, the attachments' file names. Send is offered only when no placeholder is left; the server
 * refuses such a mail anyway.
 */
const MailPreviewDialog = ({
  preview,
  onBack,
  onSend,
}: {
  preview: MailPreview | null;
  onBack: () => void;
  onSend: () => Promise<string | undefined>;
}) => {
  const translate = useTranslate();
  const m = (k: string, args?: Record<string, unknown>) => translate(`app.scanPage.mail.${k}`, args);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState<string | undefined>();
  const unresolved = preview?.unresolved ?? [];
  const close = () => {
    setFailed(undefined);
    onBack();
  };
  return (
    <Dialog open={!!preview} onClose={close} maxWidth="md" fullWidth aria-labelledby="mail-preview-title">
      <DialogTitle id="mail-preview-title">{m('preview_title')}</DialogTitle>
      {preview && (
        <DialogContent dividers>
          {unresolved.length > 0 && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {m('unresolved', { list: unresolved.join(', ') })}
            </Alert>
          )}
          {failed && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {failed}
            </Alert>
          )}
          <Typography variant="body2" color="text.secondary" component="h3">
            {m('subject')}
          </Typography>
          <Typography sx={{ mb: 2 }} data-testid="mail-preview-subject">
            {preview.subject}
          </Typography>
          <Box
            component="iframe"
            title={m('preview_body')}
            // The server's sanitised HTML, shown as the mail client would, with no script and no same-origin access.
            sandbox=""
            srcDoc={preview.html}
            sx={{ width: '100%', height: 320, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'common.white' }}
          />
          <Typography variant="body2" color="text.secondary" component="h3" sx={{ mt: 2, mb: 0.5 }}>
            {m('attachments')}
          </Typography>
          {preview.attachments.length === 0 ? (
            <Typography variant="body2">{m('preview_no_attachments')}</Typography>
          ) : (
            <Box component="ul" sx={{ m: 0, pl: 3 }} data-testid="mail-preview-attachments">
              {preview.attachments.map((a) => (
                <li key={a.key}>
                  <Typography variant="body2">{a.filename}</Typography>
                </li>
              ))}
            </Box>
          )}
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={close}>{m('back')}</Button>
        <Button
          variant="contained"
          disabled={sending || unresolved.length > 0 || !!failed}
          onClick={() => {
            setSending(true);
            void onSend().then((error) => {
              setFailed(error);
              setSending(false);
            });
          }}
        >
          {m('send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/** About the form's height on a desktop, held (empty, not a pulsing skeleton) while it is not yet mounted. */
const FORM_HEIGHT = 560;

/**
 * Communication: the send-mail form. Recipients (lower-cased, each a valid address), subject and message
 * required, the message rich text; the attachments are what the select modes picked (damage images, saved images,
 * report PDFs), sent as ids for the server to resolve from the scan's own files. Preview renders the mail on the
 * server (`POST emails/preview`); its dialog's Send makes `POST emails` → 'Mail Send'.
 */
export const Communication = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { scan, selection, clearSelection } = useScanPage();
  const [formKey, setFormKey] = useState(0);
  const [preview, setPreview] = useState<{ body: MailBody; mail: MailPreview } | null>(null);
  const labels = panelLabels(useArchData(scan.id, selection.damages.size > 0).data);
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

  const showPreview = async (values: FormValues) => {
    const body: MailBody = {
      scan_id: scan.id,
      recipients: parseRecipients(typeof values.recipients === 'string' ? values.recipients : '').valid,
      subject: typeof values.subject === 'string' ? values.subject.trim() : '',
      message: values.message,
      template_id: values.template_id || undefined,
      // The scan's own stored files by name: the server resolves them, never a URL.
      attachments: attachments.map(pathOf).filter((p): p is string => !!p),
    };
    try {
      setPreview({ body, mail: await dataProvider.previewScanEmail(body) });
      return undefined;
    } catch (error) {
      return notifyError(error);
    }
  };

  const send = async () => {
    if (!preview) return undefined;
    try {
      await dataProvider.sendScanEmail(preview.body);
      notify('app.scanPage.mail.sent', { type: 'success' });
      clearSelection();
      setPreview(null);
      setFormKey((k) => k + 1);
      return undefined;
    } catch (error) {
      notifyError(error);
      const fields = Object.values(fieldErrorsOf(error) ?? {});
      return fields.length ? fields.join(' ') : error instanceof Error ? error.message : String(error);
    }
  };

  const pathOf = (a: Attachment) =>
    a.type === 'report'
      ? a.path
      : a.type === 'annotate'
        ? scan.annotates.find((x) => x.id === a.id)?.path
        : scan.damages.find((x) => x.id === a.id)?.path;
  // The names the mail gives the files (src/domain/scan-mail.ts); the preview lists them as the server makes them.
  const labelOf = (a: Attachment, i: number) => {
    if (a.type === 'report') {
      const label = scan.report_pdfs.find((r) => r.path === a.path)?.label;
      return label ? reportAttachmentName(label, scan.licensePlate) : (a.path ?? '');
    }
    if (a.type === 'annotate') {
      const n = scan.annotates.findIndex((x) => x.id === a.id);
      return savedImageAttachmentName(n + 1, scan.annotates[n]?.vehicle_photo);
    }
    const d = scan.damages.find((x) => x.id === a.id);
    return d ? damageAttachmentName(labels.get(d.carPanel) ?? panelLabelOf(d.carPanel), d.type, d.level) : String(i + 1);
  };

  // As the mail names the files: with their extensions, a second equal name numbered.
  const extensionOf = (path: string | null | undefined) => (path && path.includes('.') ? path.slice(path.lastIndexOf('.') + 1) : '');
  const fileNames = attachmentFileNames(attachments.map((a, i) => ({ name: labelOf(a, i), extension: extensionOf(pathOf(a)) })));

  return (
    <Section id="communication" title={m('title')}>
      {/* The form (and its rich-text editor, the heaviest widget of the page) mounts as it nears the screen: it is far
          below the first screen, and mounting it whole keeps every input's validation with the form. */}
      <WhenNear placeholder={<Box sx={{ height: FORM_HEIGHT }} />}>
        <Form
          key={formKey}
          onSubmit={showPreview}
          defaultValues={{ recipients: '', subject: '', message: '', template_id: '' }}
          noValidate
          disableInvalidFormNotification
          // A mail being written asks before the page is left; a preview does not end that (the mail is not sent yet),
          // and a sent mail starts a fresh, empty form.
          warnWhenUnsavedChanges
          WarnWhenUnsavedChangesComponent={FormLeaveGuard}
        >
          <FormDraft />
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
                    <Chip size="small" label={fileNames[i]} />
                  </li>
                ))}
              </Box>
            )}
          </Box>
          <SaveButton label={m('preview')} icon={<span />} alwaysEnable />
        </Form>
      </WhenNear>
      <MailPreviewDialog preview={preview?.mail ?? null} onBack={() => setPreview(null)} onSend={send} />
    </Section>
  );
};
