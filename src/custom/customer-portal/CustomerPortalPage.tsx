import { Box, Breadcrumbs, Button, CircularProgress, Container, Link, Skeleton, Stack, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import RefreshIcon from '@mui/icons-material/Refresh';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { RichTextField, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router-dom';
import { StatusPage } from '../../components/StatusPage';
import { PincodeDialog } from './PincodeDialog';
import {
  createPortalScan,
  enrolKiosk,
  fetchPortalAgent,
  fetchPortalScans,
  KioskRequiredError,
  PincodeError,
  PortalNotFoundError,
  PortalThrottledError,
  validatePin,
  type PortalAgent,
  type PortalScan,
} from './portalApi';
import { applySaved, type SavedEvent } from './liveCards';
import { buttonSxOf } from './portalButtons';
import { followPortal } from './portalLive';
import { PortalScanGrids } from './PortalScanGrids';
import { PortalScanView } from './PortalScanView';

type State = { kind: 'loading' } | { kind: 'enrol' } | { kind: 'missing' } | { kind: 'failed' } | { kind: 'ready'; agent: PortalAgent };

/** When a throttled pincode may be tried again, for the dialog (5 failures per 15 minutes). */
const refusalOf = (e: unknown, locale: string) => {
  if (!(e instanceof PincodeError)) throw e;
  if (e.key === 'app.portal.pincode_wrong') return { key: e.key };
  const seconds = e.seconds ?? 900;
  return {
    key: e.key,
    values: {
      minutes: Math.ceil(seconds / 60),
      time: dayjs()
        .add(seconds, 'second')
        .locale(locale === 'ja' ? 'ja' : 'en')
        .format(locale === 'ja' ? 'A hh:mm' : 'hh:mm A'),
    },
  };
};

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
  const [state, setState] = useState<State>({ kind: 'loading' });
  // The lists as loaded for one visit (the location's key): a new visit shows the skeletons until it has loaded.
  const location = useLocation();
  const [loaded, setLoaded] = useState<{ visit: string; rows: PortalScan[] } | null>(null);
  const scans = loaded?.visit === location.key ? loaded.rows : null;
  const [saved, setSaved] = useState<SavedEvent | null>(null);
  const [adminDialog, setAdminDialog] = useState(false);
  const [creating, setCreating] = useState(false);
  // Bumped to load again (after enrolling, or Refresh on the scan page).
  const [attempt, setAttempt] = useState(0);
  const [scanAttempt, setScanAttempt] = useState(0);

  const failed = useCallback((e: unknown) => {
    if (e instanceof KioskRequiredError) setState({ kind: 'enrol' });
    else if (e instanceof PortalNotFoundError) setState({ kind: 'missing' });
    else setState({ kind: 'failed' });
  }, []);

  useEffect(() => {
    let cancelled = false;
    fetchPortalAgent(agentId).then(
      (agent) => !cancelled && setState({ kind: 'ready', agent }),
      (e: unknown) => !cancelled && failed(e),
    );
    return () => {
      cancelled = true;
    };
  }, [agentId, attempt, failed]);

  // The lists load only without a scan id (the scan page loads its scan itself).
  const ready = state.kind === 'ready';
  const visit = location.key;
  useEffect(() => {
    if (!ready || scanId) return undefined;
    let cancelled = false;
    fetchPortalScans(agentId).then(
      (rows) => !cancelled && setLoaded({ visit, rows }),
      (e: unknown) => !cancelled && failed(e),
    );
    return () => {
      cancelled = true;
    };
  }, [agentId, scanId, ready, failed, visit]);

  // The live channel while the portal shows; left when it does not.
  useEffect(() => {
    if (!ready) return undefined;
    return followPortal(
      agentId,
      (scan) => {
        setLoaded((l) => l && { ...l, rows: applySaved(l.rows, scan) });
        setSaved({ scan, at: Date.now() });
      },
      (status) => {
        if (status === 401) setState({ kind: 'enrol' });
      },
    );
  }, [agentId, ready]);

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
              return refusalOf(e, locale);
            }
            setState({ kind: 'loading' });
            setAttempt((n) => n + 1);
            return null;
          }}
        />
      </Box>
    );

  const agent = state.kind === 'ready' ? state.agent : null;
  const buttonSx = buttonSxOf(agent);
  const portalPath = `/customer-portal/${encodeURIComponent(agentId)}`;

  const create = async () => {
    setCreating(true);
    try {
      const scan = await createPortalScan(agentId);
      void navigate(`${portalPath}/${scan.id}`);
    } catch (e) {
      if (e instanceof PortalThrottledError)
        notify('app.portal.create_throttled', { type: 'error', messageArgs: { minutes: Math.ceil(e.seconds / 60) } });
      else if (e instanceof KioskRequiredError || e instanceof PortalNotFoundError) failed(e);
      else notify('app.error.server', { type: 'error' });
    } finally {
      setCreating(false);
    }
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', bgcolor: 'background.default', overflowX: 'hidden' }}>
      <Container maxWidth="lg" sx={{ py: 3 }}>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 2, mb: 2 }}>
          {agent?.logo && <Box component="img" src={agent.logo} alt="" sx={{ height: 48, maxWidth: 160, objectFit: 'contain' }} />}
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
                    onClick={() => void create()}
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
        {scanId ? (
          agent && (
            <PortalScanView agentId={agentId} scanId={scanId} reload={scanAttempt} saved={saved} onFailed={failed} buttonSx={buttonSx} />
          )
        ) : (
          <PortalScanGrids agentId={agentId} scans={agent ? scans : null} buttonSx={buttonSx} />
        )}
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
