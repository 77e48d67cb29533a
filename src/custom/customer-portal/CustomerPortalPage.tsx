import { Box, Breadcrumbs, Button, Card, CardContent, Container, Stack, Tooltip, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import { StatusPage } from '../../components/StatusPage';
import { PageLoading } from '../../components/PageLoading';
import { formatDateTime } from '../../domain/format';
import { PincodeDialog } from './PincodeDialog';
import {
  enrolKiosk,
  fetchPortalAgent,
  fetchPortalScans,
  KioskRequiredError,
  PincodeError,
  PortalNotFoundError,
  validatePin,
  type PortalAgent,
  type PortalScan,
} from './portalApi';
import { followPortal } from './portalLive';

type State = { kind: 'loading' } | { kind: 'enrol' } | { kind: 'missing' } | { kind: 'failed' } | { kind: 'ready'; agent: PortalAgent };

const refusal = (e: unknown) => {
  if (e instanceof PincodeError) return { key: e.key, values: { seconds: e.seconds ?? 900 } };
  throw e;
};

/**
 * The customer portal of one agent. An enrolled portal without a valid kiosk token in this browser shows only the
 * enrolment dialog; once enrolled (or when the agent's portal is open) it shows the agent's scans of the last 48 hours,
 * kept live by the portal channel.
 */
export const CustomerPortalPage = () => {
  const { agentId = '' } = useParams();
  const translate = useTranslate();
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [scans, setScans] = useState<PortalScan[]>([]);
  const [adminDialog, setAdminDialog] = useState(false);

  // Bumped to load again (after enrolling).
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    Promise.all([fetchPortalAgent(agentId), fetchPortalScans(agentId)]).then(
      ([agent, rows]) => {
        if (cancelled) return;
        setScans(rows);
        setState({ kind: 'ready', agent });
      },
      (e: unknown) => {
        if (cancelled) return;
        if (e instanceof KioskRequiredError) setState({ kind: 'enrol' });
        else if (e instanceof PortalNotFoundError) setState({ kind: 'missing' });
        else setState({ kind: 'failed' });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [agentId, attempt]);

  const ready = state.kind === 'ready';
  useEffect(() => {
    if (!ready) return;
    // Spec 1 §4: a saved scan goes on top (completed when it has a quote, else new), once.
    return followPortal(
      agentId,
      (scan) => setScans((rows) => [scan, ...rows.filter((r) => r.id !== scan.id)]),
      (status) => {
        if (status === 401) setState({ kind: 'enrol' });
      },
    );
  }, [agentId, ready]);

  if (state.kind === 'loading') return <PageLoading />;
  if (state.kind === 'missing')
    return (
      <StatusPage code="404" message={translate('app.portal.not_available')}>
        {null}
      </StatusPage>
    );
  if (state.kind === 'failed')
    return (
      <StatusPage code="500" message={translate('app.error.server')}>
        {null}
      </StatusPage>
    );
  if (state.kind === 'enrol')
    return (
      <Box component="main" sx={{ minHeight: '100vh' }}>
        <PincodeDialog
          open
          title="app.portal.enrol_title"
          text="app.portal.enrol_text"
          onSubmit={async (pincode) => {
            try {
              await enrolKiosk(agentId, pincode);
            } catch (e) {
              if (e instanceof PortalNotFoundError) {
                setState({ kind: 'missing' });
                return null;
              }
              return refusal(e);
            }
            setState({ kind: 'loading' });
            setAttempt((n) => n + 1);
            return null;
          }}
        />
      </Box>
    );

  const { agent } = state;
  const buttonSx = { bgcolor: agent.primary_color, color: agent.text_color, '&:hover': { bgcolor: agent.primary_color, opacity: 0.9 } };
  return (
    <Box component="main" sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Container maxWidth="lg" sx={{ py: 3 }}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2, gap: 2 }}>
          <Stack direction="row" sx={{ alignItems: 'center', gap: 2 }}>
            {agent.logo && <Box component="img" src={agent.logo} alt="" sx={{ height: 48 }} />}
            <Box>
              <Typography variant="h5" component="h1">
                {agent.name}
              </Typography>
              <Breadcrumbs aria-label={translate('app.crud.breadcrumb')}>
                <Typography color="text.primary">{translate('app.portal.title')}</Typography>
              </Breadcrumbs>
            </Box>
          </Stack>
          <Tooltip title={translate('app.portal.go_admin_tooltip')} describeChild>
            <Button variant="contained" sx={buttonSx} onClick={() => setAdminDialog(true)}>
              {translate('app.portal.go_admin')}
            </Button>
          </Tooltip>
        </Stack>
        <ScanSection title="app.portal.new_scans" empty="app.portal.no_new_scans" rows={scans.filter((s) => !s.has_quote)} />
        <ScanSection title="app.portal.completed_scans" empty="app.portal.no_completed_scans" rows={scans.filter((s) => s.has_quote)} />
      </Container>
      <PincodeDialog
        open={adminDialog}
        title="app.portal.code_validation"
        onCancel={() => setAdminDialog(false)}
        onSubmit={async (pin) => {
          let ok: boolean;
          try {
            ok = await validatePin(agentId, pin);
          } catch (e) {
            return refusal(e);
          }
          if (!ok) return { key: 'app.portal.pincode_wrong' };
          // /scans still needs a sign-in and the scan permission.
          void navigate('/scans');
          return null;
        }}
      />
    </Box>
  );
};

const ScanSection = ({ title, empty, rows }: { title: string; empty: string; rows: PortalScan[] }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Box component="section" aria-label={translate(title)} sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate(title)}
      </Typography>
      <Box
        sx={{ maxHeight: 400, overflowY: 'auto', display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}
      >
        {rows.length === 0 && <Typography color="text.secondary">{translate(empty)}</Typography>}
        {rows.map((scan) => (
          <Card key={scan.id} variant="outlined">
            <CardContent>
              <Typography variant="subtitle1" component="h3">
                {translate('app.portal.car_details')}
              </Typography>
              <Typography variant="body2">
                {translate('app.portal.registration')}: {scan.licensePlate || translate('app.portal.nil')}
              </Typography>
              <Typography variant="body2">
                {translate('app.portal.scan_time')}: {formatDateTime(scan.timestamp, locale) || translate('app.portal.nil')}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
    </Box>
  );
};
