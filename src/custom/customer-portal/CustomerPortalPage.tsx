import { Box, Breadcrumbs, Button, CircularProgress, Container, Link, Skeleton, Stack, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import RefreshIcon from '@mui/icons-material/Refresh';
import { formatClock } from '../../domain/format';
import { useCallback, useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RichTextField, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router-dom';
import { StatusPage } from '../../components/StatusPage';
import { PincodeDialog } from './PincodeDialog';
import { KioskRequiredError, PincodeError, PortalNotFoundError, PortalThrottledError, type AppDataProvider } from '../../dataProvider';
import type { PortalScan } from '../../domain/portal';
import { applySaved, type SavedEvent } from './liveCards';
import { buttonSxOf } from './portalButtons';
import { followPortal } from './portalLive';
import { PortalScanGrids } from './PortalScanGrids';
import { PortalScanView } from './PortalScanView';

/** What the page shows instead of the portal: enrolment, 'not available' or the server error. */
type Refusal = 'enrol' | 'missing' | 'failed';

const refusalOfError = (e: unknown): Refusal =>
  e instanceof KioskRequiredError ? 'enrol' : e instanceof PortalNotFoundError ? 'missing' : 'failed';

/** When a throttled pincode may be tried again, for the dialog (5 failures per 15 minutes). */
const refusalOf = (e: unknown, locale: string) => {
  if (!(e instanceof PincodeError)) throw e;
  if (e.key === 'app.portal.pincode_wrong') return { key: e.key };
  const seconds = e.seconds ?? 900;
  return {
    key: e.key,
    values: {
      minutes: Math.ceil(seconds / 60),
      // In Melbourne, as the portal's scan times are, whatever the kiosk's own clock zone.
      time: formatClock(Date.now() + seconds * 1000, locale),
    },
  };
};

/** The react-query keys of one portal's calls: its agent, its scan lists (one per visit) and its scans (PortalScanView). */
const portalKey = (agentId: string, ...rest: unknown[]) => ['portal', agentId, ...rest];

/**
 * The customer portal of one agent (docs/portal.md): a kiosk without sign-in, sidebar or header
 * icons. An enrolled portal without a kiosk token in this browser shows only the enrolment dialog. Without a scan id:
 * NEW SCANS and COMPLETED SCANS of the last 48 hours, live; with one: that scan's vehicle and damage, read-only.
 */
export const CustomerPortalPage = () => {
  const { agentId = '', scanId } = useParams();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const navigate = useNavigate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  // A refusal met on the way (a list, a scan, the live channel, Create Scan); enrolling clears it.
  const [refused, setRefused] = useState<Refusal | null>(null);
  const [adminDialog, setAdminDialog] = useState(false);
  // Bumped by Refresh on the scan page.
  const [scanAttempt, setScanAttempt] = useState(0);

  const failed = useCallback((e: unknown) => setRefused(refusalOfError(e)), []);

  const agentQuery = useQuery({
    queryKey: portalKey(agentId, 'agent'),
    queryFn: () => dataProvider.portalAgent(agentId),
    retry: false,
  });
  const agent = agentQuery.data ?? null;
  const agentRefusal = agentQuery.error ? refusalOfError(agentQuery.error) : null;
  const agentReady = !refused && !agentRefusal && agent !== null;

  // The lists as loaded for one visit (the location's key): a new visit shows the skeletons until it has loaded. They
  // load only without a scan id (the scan page loads its scan itself), beside the agent rather than after it: the
  // page shows both together, and a kiosk refused for one is refused for the other.
  const visit = useLocation().key;
  const scansQuery = useQuery({
    queryKey: portalKey(agentId, 'scans', visit),
    queryFn: () => dataProvider.portalScans(agentId),
    enabled: !refused && !agentRefusal && !scanId,
    retry: false,
  });
  const scans = scansQuery.data ?? null;
  const state: Refusal | 'loading' | 'ready' =
    refused ?? agentRefusal ?? (scansQuery.error ? refusalOfError(scansQuery.error) : agentReady ? 'ready' : 'loading');
  const ready = state === 'ready';

  const [saved, setSaved] = useState<SavedEvent | null>(null);
  // The live channel while the portal shows; left when it does not.
  useEffect(() => {
    if (!ready) return undefined;
    return followPortal(
      agentId,
      (scan) => {
        queryClient.setQueriesData<PortalScan[]>({ queryKey: portalKey(agentId, 'scans') }, (rows) => rows && applySaved(rows, scan));
        setSaved({ scan, at: Date.now() });
      },
      (status) => {
        if (status === 401) setRefused('enrol');
      },
    );
  }, [agentId, ready, queryClient]);

  const portalPath = `/customer-portal/${encodeURIComponent(agentId)}`;
  const create = useMutation({
    mutationFn: () => dataProvider.portalCreateScan(agentId),
    onSuccess: (scan) => void navigate(`${portalPath}/${scan.id}`),
    onError: (e) => {
      if (e instanceof PortalThrottledError)
        notify('app.portal.create_throttled', { type: 'error', messageArgs: { minutes: Math.ceil(e.seconds / 60) } });
      else if (e instanceof KioskRequiredError || e instanceof PortalNotFoundError) failed(e);
      else notify('app.error.server', { type: 'error' });
    },
  });
  const creating = create.isPending;

  if (state === 'missing')
    return (
      <StatusPage code="404" message={translate('app.portal.not_available')}>
        {null}
      </StatusPage>
    );
  if (state === 'failed')
    return (
      <StatusPage code="500" message={translate('app.error.server')}>
        {null}
      </StatusPage>
    );
  if (state === 'enrol')
    return (
      <Box component="main" sx={{ minHeight: '100vh' }}>
        <PincodeDialog
          open
          title="app.portal.enrol_title"
          text="app.portal.enrol_text"
          onSubmit={async (pincode) => {
            try {
              await dataProvider.portalEnrol(agentId, pincode);
            } catch (e) {
              if (e instanceof PortalNotFoundError) {
                setRefused('missing');
                return null;
              }
              return refusalOf(e, locale);
            }
            // Everything loads again with the new kiosk token.
            setRefused(null);
            void queryClient.resetQueries({ queryKey: portalKey(agentId) });
            return null;
          }}
        />
      </Box>
    );

  const buttonSx = buttonSxOf(agent);

  return (
    <Box component="main" sx={{ minHeight: '100vh', bgcolor: 'background.default', overflowX: 'hidden' }}>
      <Container maxWidth="lg" sx={{ py: 3 }}>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 2, mb: 2 }}>
          {/* A square box is kept for the logo from the first paint, so the name does not move when it arrives. */}
          {agent === null ? (
            <Skeleton variant="rounded" width={48} height={48} />
          ) : (
            agent.logo && (
              <Box component="img" src={agent.logo} alt="" sx={{ height: 48, minWidth: 48, maxWidth: 160, objectFit: 'contain' }} />
            )
          )}
          <Box sx={{ minWidth: 0, flex: '1 1 200px' }}>
            <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }}>
              {agent ? agent.name : <Skeleton width={200} />}
            </Typography>
            <Breadcrumbs aria-label={translate('app.crud.breadcrumb')} separator=">">
              {scanId ? (
                <Link component={RouterLink} to={portalPath} underline="hover" color="inherit">
                  {translate('app.portal.title')}
                </Link>
              ) : (
                <Typography color="text.primary">{translate('app.portal.title')}</Typography>
              )}
              {scanId && <Typography color="text.primary">{translate('app.portal.scan_detail')}</Typography>}
            </Breadcrumbs>
          </Box>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            {scanId ? (
              <Tooltip title={translate('app.portal.refresh')} describeChild>
                <span>
                  <Button
                    variant="contained"
                    sx={buttonSx}
                    startIcon={<RefreshIcon />}
                    disabled={!agent}
                    onClick={() => setScanAttempt((n) => n + 1)}
                  >
                    {translate('app.portal.refresh')}
                  </Button>
                </span>
              </Tooltip>
            ) : (
              <Tooltip title={translate('app.portal.create_scan_tooltip')} describeChild>
                <span>
                  <Button
                    variant="contained"
                    sx={buttonSx}
                    startIcon={creating ? <CircularProgress size={16} color="inherit" /> : <AddIcon />}
                    disabled={!agent || creating}
                    onClick={() => create.mutate()}
                  >
                    {translate(creating ? 'app.portal.creating' : 'app.portal.create_scan')}
                  </Button>
                </span>
              </Tooltip>
            )}
            <Tooltip title={translate('app.portal.go_admin_tooltip')} describeChild>
              <span>
                <Button variant="contained" sx={buttonSx} disabled={!agent} onClick={() => setAdminDialog(true)}>
                  {translate('app.portal.go_admin')}
                </Button>
              </span>
            </Tooltip>
          </Stack>
        </Stack>
        {agent?.blurb && !scanId && (
          <Box
            component="section"
            aria-label={translate('app.portal.about', { name: agent.name })}
            sx={{ mb: 3, '& p': { my: 0.5 }, overflowWrap: 'anywhere' }}
          >
            <RichTextField record={agent} source="blurb" />
          </Box>
        )}
        {scanId
          ? agent && (
              <PortalScanView agentId={agentId} scanId={scanId} reload={scanAttempt} saved={saved} onFailed={failed} buttonSx={buttonSx} />
            )
          : // The lists show with the agent, so its blurb never pushes them down.
            agent && <PortalScanGrids agentId={agentId} scans={scans} buttonSx={buttonSx} />}
      </Container>
      <PincodeDialog
        open={adminDialog}
        title="app.portal.code_validation"
        onCancel={() => setAdminDialog(false)}
        onSubmit={async (pin) => {
          let ok: boolean;
          try {
            ok = await dataProvider.portalValidatePin(agentId, pin);
          } catch (e) {
            return refusalOf(e, locale);
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
