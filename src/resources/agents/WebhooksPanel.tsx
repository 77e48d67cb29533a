import { useEffect, useMemo, useState } from 'react';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  List,
  ListItem,
  Skeleton,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import ScheduleIcon from '@mui/icons-material/Schedule';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { useQuery } from '@tanstack/react-query';
import {
  CheckboxGroupInput,
  Form,
  SaveButton,
  TextInput,
  useCanAccess,
  useCreate,
  useDataProvider,
  useDelete,
  useGetList,
  useLocaleState,
  useNotify,
  useRecordContext,
  useTranslate,
  useUpdate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import { Confirm } from '../../components/Confirm';
import { CopyButton } from '../../components/CopyButton';
import { fieldValidator } from '../../components/fieldValidation';
import { useDiscardGuard, useReportUnsaved, useUnsavedInput } from '../../components/useLeaveGuard';
import { useNotifyError } from '../../components/useNotifyError';
import type { AppDataProvider, SelectOption } from '../../dataProvider';
import { formatDateTime } from '../../domain/format';
import type { Webhook as WebhookRecord, WebhookDelivery } from '../../domain/records';
import { webhookFields } from '../../domain/webhooks';

/** The domain's records (src/domain/records.ts), as the server sends them. */
export type Webhook = WebhookRecord & RaRecord;
export type { WebhookDelivery };

/** The agent's latest deliveries by webhook, refreshed while the panel is open; a failure only leaves the lines out. */
function useLatestDeliveries(agentId: Identifier | undefined) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const query = useQuery<WebhookDelivery[]>({
    queryKey: ['webhooks', 'deliveries', agentId],
    queryFn: () => dataProvider.webhookDeliveries(Number(agentId)),
    enabled: agentId != null,
    refetchInterval: 10_000,
    retry: false,
  });
  return useMemo(() => new Map((Array.isArray(query.data) ? query.data : []).map((d) => [d.webhook_id, d])), [query.data]);
}

/** One line under a webhook: how its latest event went (delivered, being retried, failed), or that none was sent yet. */
const DeliveryLine = ({ delivery, eventLabel }: { delivery: WebhookDelivery | undefined; eventLabel: (value: string) => string }) => {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  const time = (value: string | null) => formatDateTime(value, locale);
  let icon = null;
  let text: string;
  if (!delivery) text = translate('resources.webhooks.delivery.none');
  else {
    const args = {
      event: eventLabel(delivery.event),
      attempts: delivery.attempts,
      error: delivery.last_error
        ? translate(`resources.webhooks.delivery.errors.${delivery.last_error}`, {
            status: delivery.last_status ?? '',
            _: delivery.last_error,
          })
        : '',
      time: time(
        delivery.status === 'delivered'
          ? delivery.delivered_at
          : delivery.status === 'failed'
            ? delivery.created_at
            : delivery.next_attempt_at,
      ),
    };
    if (delivery.status === 'delivered') {
      icon = <CheckCircleIcon fontSize="inherit" color="success" />;
      text = translate('resources.webhooks.delivery.delivered', args);
    } else if (delivery.status === 'failed') {
      icon = <ErrorIcon fontSize="inherit" color="error" />;
      text = translate('resources.webhooks.delivery.failed', args);
    } else {
      icon = <ScheduleIcon fontSize="inherit" color="warning" />;
      text = translate(delivery.attempts ? 'resources.webhooks.delivery.retrying' : 'resources.webhooks.delivery.sending', args);
    }
  }
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mb: 1, wordBreak: 'break-word' }}
    >
      {icon}
      {text}
    </Typography>
  );
};

/** The webhook dialog is at most 700 px wide. */
const DIALOG_MAX_WIDTH = 700;

/** `GET webhooks/events`: what a webhook may subscribe to, labelled in the user's language when we know the event. */
function useWebhookEvents() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const translate = useTranslate();
  const query = useQuery<SelectOption[]>({
    queryKey: ['webhooks', 'events'],
    queryFn: () => dataProvider.webhookEvents(),
    staleTime: 5 * 60_000,
  });
  const label = useMemo(
    () => (value: string, text?: string) => translate(`resources.webhooks.events.${value}`, { _: text ?? value }),
    [translate],
  );
  const choices = useMemo(
    () => (query.data ?? []).map((e) => ({ id: String(e.value), name: label(String(e.value), e.text) })),
    [query.data, label],
  );
  return { choices, label, isPending: query.isPending };
}

/** Inputs' validators from the domain's webhook fields (endpoint an http(s) URL, at least one event). */
function useWebhookValidators() {
  const translate = useTranslate();
  return useMemo(() => {
    const of = (name: 'endpoint' | 'description' | 'events') =>
      fieldValidator(webhookFields[name], translate(`resources.webhooks.fields.${name}`));
    return { endpoint: of('endpoint'), description: of('description'), events: of('events') };
  }, [translate]);
}

/** Tells the dialog around the form whether it holds unsaved input. */
const ReportUnsaved = ({ onChange }: { onChange: (unsaved: boolean) => void }) => {
  const unsaved = useUnsavedInput();
  useEffect(() => onChange(unsaved), [unsaved, onChange]);
  return null;
};

const WebhookDialog = ({
  agentId,
  webhook,
  onClose,
  onSaved,
}: {
  agentId: Identifier;
  webhook: Webhook | null;
  onClose: () => void;
  onSaved: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const validators = useWebhookValidators();
  const { choices, isPending } = useWebhookEvents();
  const [create, { isPending: creating }] = useCreate();
  const [update, { isPending: updating }] = useUpdate();
  const record = useMemo(() => webhook ?? { events: [] }, [webhook]);
  const [dirty, setDirty] = useState(false);
  const discard = useDiscardGuard(dirty);
  // Leaving the agent's page (a link, the back button) asks for the dialog's input as for the agent's own.
  useReportUnsaved(dirty);
  const close = () => discard.close(onClose);

  // Returning the 422 field map puts each server message under its input.
  const save = async (values: Record<string, unknown>) => {
    const data = { endpoint: values.endpoint, description: values.description ?? null, events: values.events, agent_id: Number(agentId) };
    try {
      if (webhook)
        await update('webhooks', { id: webhook.id, data, previousData: webhook }, { mutationMode: 'pessimistic', returnPromise: true });
      else await create('webhooks', { data }, { returnPromise: true });
    } catch (error) {
      return notifyError(error);
    }
    notify(webhook ? 'ra.notification.updated' : 'ra.notification.created', { type: 'success', messageArgs: { smart_count: 1 } });
    onSaved();
    return undefined;
  };

  const titleId = 'webhook-dialog-title';
  return (
    <Dialog
      open
      onClose={close}
      fullWidth
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { maxWidth: DIALOG_MAX_WIDTH, mx: 1, width: 'calc(100% - 16px)' } } }}
    >
      <Form resource="webhooks" record={record} onSubmit={save} noValidate disableInvalidFormNotification>
        <ReportUnsaved onChange={setDirty} />
        <DialogTitle id={titleId}>{translate(webhook ? 'resources.webhooks.edit_title' : 'resources.webhooks.create_title')}</DialogTitle>
        <DialogContent dividers>
          <TextInput
            source="endpoint"
            type="url"
            validate={validators.endpoint}
            helperText="resources.webhooks.helper.endpoint"
            fullWidth
          />
          <TextInput source="description" validate={validators.description} multiline minRows={2} fullWidth />
          {isPending ? (
            <Skeleton height={48} />
          ) : (
            <CheckboxGroupInput source="events" choices={choices} validate={validators.events} row={false} />
          )}
          {webhook && (
            <Box sx={{ mt: 1 }}>
              <Typography variant="subtitle2">{translate('resources.webhooks.fields.secret')}</Typography>
              <SecretLine secret={webhook.secret} />
            </Box>
          )}
        </DialogContent>
        <DialogActions>
          <Button type="button" onClick={close}>
            {translate('app.crud.cancel')}
          </Button>
          <SaveButton label="app.crud.submit" alwaysEnable={!(creating || updating)} />
        </DialogActions>
      </Form>
      {discard.dialog}
    </Dialog>
  );
};

/** The signing secret, made by the server; shown in full so it can be checked, with a copy button ('Copied!' 5 s). */
const SecretLine = ({ secret }: { secret: string }) => (
  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { xs: 'flex-start', sm: 'center' }, minWidth: 0 }}>
    <Box
      component="code"
      sx={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all', bgcolor: 'action.hover', px: 1, py: 0.5, borderRadius: 1 }}
    >
      {secret}
    </Box>
    <CopyButton text={secret} />
  </Stack>
);

const WebhookItem = ({
  webhook,
  delivery,
  eventLabel,
  onEdit,
  onDelete,
}: {
  webhook: Webhook;
  delivery: WebhookDelivery | undefined;
  eventLabel: (value: string) => string;
  onEdit: () => void;
  onDelete: () => void;
}) => {
  const translate = useTranslate();
  return (
    <ListItem divider sx={{ display: 'block', px: 0 }} aria-label={webhook.endpoint}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body1" sx={{ wordBreak: 'break-all', fontWeight: 500 }}>
            {webhook.endpoint}
          </Typography>
          {webhook.description && (
            <Typography variant="body2" color="text.secondary">
              {webhook.description}
            </Typography>
          )}
        </Box>
        <Tooltip title={translate('app.crud.edit')}>
          <IconButton size="small" color="primary" onClick={onEdit} aria-label={translate('app.crud.edit')}>
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={translate('app.crud.delete')}>
          <IconButton size="small" color="error" onClick={onDelete} aria-label={translate('app.crud.delete')}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
      <Stack direction="row" spacing={0.5} sx={{ my: 1, flexWrap: 'wrap', rowGap: 0.5 }}>
        {webhook.events.map((event) => (
          <Chip key={event} size="small" label={eventLabel(event)} />
        ))}
      </Stack>
      <DeliveryLine delivery={delivery} eventLabel={eventLabel} />
      <SecretLine secret={webhook.secret} />
    </ListItem>
  );
};

/**
 * An agent's webhooks (Agents), under the agent form when editing: the list from
 * `GET webhooks?agent_id=`, create and edit in a dialog, delete after 'are you sure ?'.
 */
export const WebhooksPanel = () => {
  const translate = useTranslate();
  const agent = useRecordContext();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const { label } = useWebhookEvents();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [deleteOne, { isPending: isDeleting }] = useDelete();
  // A Client user holding `agent` reads the agent but none of its webhooks (their signing secrets are the agent's).
  const { canAccess } = useCanAccess({ resource: 'webhooks', action: 'list' });
  const {
    data = [],
    isPending,
    refetch,
  } = useGetList<Webhook>(
    'webhooks',
    { filter: { agent_id: agent?.id }, pagination: { page: 1, perPage: 100 }, sort: { field: 'created_at', order: 'ASC' } },
    { enabled: agent?.id != null && canAccess === true },
  );
  const deliveries = useLatestDeliveries(canAccess ? agent?.id : undefined);
  if (!agent || !canAccess) return null;

  const confirmDelete = () => {
    if (!deleting) return;
    void deleteOne(
      'webhooks',
      { id: deleting.id, previousData: deleting },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setDeleting(null);
          notify('ra.notification.deleted', { type: 'success', messageArgs: { smart_count: 1 } });
          void refetch();
        },
        onError: (error: unknown) => notifyError(error),
      },
    );
  };

  return (
    <Card sx={{ maxWidth: 720, mt: 2 }} component="section" aria-labelledby="webhooks-title">
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
          <Typography id="webhooks-title" variant="h6" component="h2" sx={{ flex: 1 }}>
            {translate('resources.webhooks.name', { smart_count: 2 })}
          </Typography>
          <Button type="button" variant="contained" size="small" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
            {translate('resources.webhooks.add')}
          </Button>
        </Box>
        {isPending ? (
          <Skeleton height={96} />
        ) : data.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {translate('resources.webhooks.empty')}
          </Typography>
        ) : (
          <List disablePadding aria-labelledby="webhooks-title">
            {data.map((webhook) => (
              <WebhookItem
                key={webhook.id}
                webhook={webhook}
                delivery={deliveries.get(Number(webhook.id))}
                eventLabel={label}
                onEdit={() => setEditing(webhook)}
                onDelete={() => setDeleting(webhook)}
              />
            ))}
          </List>
        )}
      </CardContent>
      {editing !== null && (
        <WebhookDialog
          agentId={agent.id}
          webhook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refetch();
          }}
        />
      )}
      <Confirm
        isOpen={deleting !== null}
        loading={isDeleting}
        title="app.crud.delete_title"
        content={deleting?.endpoint ?? ''}
        cancel="app.crud.delete_cancel"
        confirm="app.crud.delete_confirm"
        confirmColor="warning"
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </Card>
  );
};
