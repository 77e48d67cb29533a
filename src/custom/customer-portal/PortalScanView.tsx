import {
  Box,
  Button,
  ButtonBase,
  Card,
  CardContent,
  CardHeader,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { ImageViewer } from '../../components/ImageViewer';
import { damageImageText } from '../../domain/damage-images';
import { imageSources } from '../../domain/images';
import { formatDateTime } from '../../domain/format';
import type { SavedEvent } from './liveCards';
import type { ButtonSx } from './portalButtons';
import { PortalScanNotFoundError, type AppDataProvider } from '../../dataProvider';

const LEVELS = ['light', 'medium', 'heavy', 'severe', 'oversize'] as const;
/** Panel keys as words ('front_bumper' → 'front bumper'). */
/** A tile is half a phone's width, and under 280 px (its grid's minimum is 140) from the small breakpoint up. */
const PORTAL_IMAGE_SIZES = '(max-width: 599px) 50vw, 280px';

const panelName = (panel: string) => panel.replace(/_/g, ' ');

/**
 * The portal's scan page (docs/portal.md): read-only, what the customer may see of their own vehicle: its details, the
 * scanner's image and photos, the damage counts per panel and severity with each detection's image, and tyre
 * findings. Never the client, agent, location, valuation, reports or staff work (the endpoint does not send them).
 */
export const PortalScanView = ({
  agentId,
  scanId,
  reload,
  saved,
  onFailed,
  buttonSx,
}: {
  agentId: string;
  scanId: string;
  /** Bumped by Refresh. */
  reload: number;
  saved: SavedEvent | null;
  onFailed: (e: unknown) => void;
  buttonSx: ButtonSx;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [viewing, setViewing] = useState<number | null>(null);
  // The scan id is lower-cased.
  const id = scanId.toLowerCase();
  // A live `saved` for this scan reloads it (its registration or counts changed).
  const liveTick = saved && String(saved.scan.id) === id ? saved.at : 0;
  // Refresh and a live change ask again; the scan shown stays until the new one arrives.
  const { data, error } = useQuery({
    queryKey: ['portal', agentId, 'scan', id, reload, liveTick],
    queryFn: () => dataProvider.portalScan(agentId, id),
    placeholderData: (previous) => previous,
    retry: false,
  });
  const missing = error instanceof PortalScanNotFoundError;
  useEffect(() => {
    if (error && !missing) onFailed(error);
  }, [error, missing, onFailed]);

  if (missing)
    return (
      <Box sx={{ py: 4 }}>
        <Typography variant="h6" component="h2">
          {translate('app.portal.scan_not_found')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('app.portal.scan_not_found_text')}
        </Typography>
        <Button component={RouterLink} to={`/customer-portal/${encodeURIComponent(agentId)}`} variant="contained" sx={buttonSx}>
          {translate('app.portal.back_to_portal')}
        </Button>
      </Box>
    );

  const scan = data ?? null;
  const t = (k: string, o?: object) => translate(`app.portal.${k}`, o);
  const nil = t('nil');
  const typeLabel = scan ? translate(`app.scans.type.${scan.type}`, { _: scan.type }) : '';
  const statusLabel = scan ? translate(`app.scans.status.${scan.status}`, { _: scan.status }) : '';
  const panels = scan ? [...new Set([...Object.keys(scan.measures.dents), ...Object.keys(scan.measures.scratchs)])].sort() : [];
  const sum = (counts: Record<string, number> | undefined) => (counts ? Object.values(counts).reduce((a, b) => a + b, 0) : 0);
  const images = scan
    ? [
        ...(scan.image?.src || scan.image?.thumbnail
          ? [{ key: 'vehicle', src: (scan.image.src ?? scan.image.thumbnail)!, alt: t('vehicle_image') }]
          : []),
        ...scan.photos.map((p, i) => ({ key: `photo-${p.id}`, src: p.src, alt: t('photo', { n: i + 1 }) })),
        ...scan.damages
          .filter((d) => d.src)
          .map((d) => ({
            key: `damage-${d.id}`,
            src: d.src!,
            alt: damageImageText(d, translate),
          })),
        ...scan.tyres
          .filter((y) => y.imageFileUrl)
          .map((y) => ({
            key: `tyre-${y.label}-${y.position}`,
            src: y.imageFileUrl!,
            alt: t('tyre_image', { label: `${y.label} (${y.position})` }),
          })),
      ]
    : [];

  return (
    <Box
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }, alignItems: 'start' }}
    >
      <Section title={t('car_details')} loading={!scan}>
        <Detail label={t('registration')}>{scan?.licensePlate || nil}</Detail>
        <Detail label={t('make')}>{scan?.make || nil}</Detail>
        <Detail label={t('model')}>{scan?.model || nil}</Detail>
        <Detail label={t('car_color')}>{scan?.carColor || nil}</Detail>
        <Detail label={t('body_type')}>{scan?.body_type || nil}</Detail>
      </Section>
      <Section title={t('scan_details')} loading={!scan}>
        <Detail label={t('scan_time')}>{formatDateTime(scan?.timestamp, locale) || nil}</Detail>
        <Detail label={t('type')}>{typeLabel}</Detail>
        <Detail label={t('status')}>{statusLabel}</Detail>
      </Section>
      <Section title={t('damage')} loading={!scan}>
        <Detail label={t('dents')}>{scan?.dentCount ?? 0}</Detail>
        <Detail label={t('scratches')}>{scan?.scratchCount ?? 0}</Detail>
        <Detail label={t('total')}>{scan?.damageCount ?? 0}</Detail>
        {panels.length === 0 ? (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t('no_damage')}
          </Typography>
        ) : (
          <TableContainer sx={{ mt: 1 }}>
            <Table size="small" aria-label={t('damage')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('panel')}</TableCell>
                  <TableCell align="right">{t('dents')}</TableCell>
                  <TableCell align="right">{t('scratches')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {panels.map((panel) => (
                  <TableRow key={panel}>
                    <TableCell component="th" scope="row" sx={{ textTransform: 'capitalize' }}>
                      {panelName(panel)}
                    </TableCell>
                    <TableCell align="right">{sum(scan?.measures.dents[panel])}</TableCell>
                    <TableCell align="right">{sum(scan?.measures.scratchs[panel])}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {scan && scan.damages.length > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {LEVELS.map((level) => {
              const n = scan.damages.filter((d) => d.level === level).length;
              return n ? `${t(`level.${level}`)}: ${n}` : null;
            })
              .filter(Boolean)
              .join(' · ')}
          </Typography>
        )}
      </Section>
      {scan && scan.tyres.length > 0 && (
        <Section title={t('tyres')} loading={false}>
          {scan.tyres.map((y) => (
            <Detail key={`${y.label}-${y.position}`} label={`${y.label} (${y.position})`}>
              {y.depths.length > 0 && t('tread', { min: Math.min(...y.depths).toFixed(1), max: Math.max(...y.depths).toFixed(1) })}
              {[y.eatenTire, y.pressureTire]
                .filter((n) => n !== 'NONE')
                .map((n) => ` · ${t(`tyre_note.${n}`, { _: n })}`)
                .join('')}
            </Detail>
          ))}
        </Section>
      )}
      {images.length > 0 && (
        <Box sx={{ gridColumn: '1 / -1' }}>
          <Section title={t('images')} loading={false}>
            <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(min(140px, 100%), 1fr))' }}>
              {images.map((img, i) => (
                <Box component="figure" key={img.key} sx={{ m: 0 }}>
                  <ButtonBase
                    onClick={() => setViewing(i)}
                    aria-label={translate('app.imageViewer.open', { name: img.alt })}
                    aria-haspopup="dialog"
                    sx={{ display: 'block', width: '100%', borderRadius: 1, cursor: 'zoom-in' }}
                  >
                    <Box
                      component="img"
                      {...imageSources(img.src, PORTAL_IMAGE_SIZES)}
                      alt={img.alt}
                      loading="lazy"
                      decoding="async"
                      sx={{
                        width: '100%',
                        aspectRatio: '4 / 3',
                        objectFit: 'cover',
                        display: 'block',
                        borderRadius: 1,
                        bgcolor: 'action.hover',
                      }}
                    />
                  </ButtonBase>
                  <Typography component="figcaption" variant="caption" color="text.secondary">
                    {img.alt}
                  </Typography>
                </Box>
              ))}
            </Box>
            {viewing !== null && <ImageViewer images={images} start={viewing} onClose={() => setViewing(null)} />}
          </Section>
        </Box>
      )}
    </Box>
  );
};

const Section = ({ title, loading, children }: { title: string; loading: boolean; children: ReactNode }) => (
  <Card variant="outlined" sx={{ minWidth: 0 }}>
    <CardHeader title={title} slotProps={{ title: { variant: 'subtitle1', component: 'h2', sx: { fontWeight: 600 } } }} sx={{ pb: 0 }} />
    <CardContent>
      {loading ? Array.from({ length: 4 }, (_, i) => <Skeleton key={i} variant="text" sx={{ my: 0.75 }} />) : children}
    </CardContent>
  </Card>
);

const Detail = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)', gap: 2, py: 0.5 }}>
    <Typography variant="body2" color="text.secondary">
      {label}
    </Typography>
    <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere' }}>
      {children}
    </Typography>
  </Box>
);
