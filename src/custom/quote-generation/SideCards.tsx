import { QuoteStatusChip } from '../../components/QuoteStatusChip';
import type { QuoteStatus } from '../../domain/quote-approval';
import type { ReactNode } from 'react';
import { Box, Button, Card, CardContent, CardHeader, Divider, Link, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { LinkBase, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { formatDateTime } from '../../domain/format';
import { wheelName } from '../../domain/invoice-labels';
import { formatMoney } from '../../domain/money';
import type { PricedLine, QuoteTotals } from '../../domain/pricing';
import { tyreLineKey } from '../../domain/pricing';
import type { ScanInfo } from './evaluation';
import type { QuoteTyreChoice } from './quoteForm';

const T = 'app.quotes.generation';

export const QuoteCard = ({ title, children, id }: { title: string; children: ReactNode; id?: string }) => (
  <Card variant="outlined" component="section" aria-labelledby={id}>
    <CardHeader
      title={title}
      slotProps={{ title: { id, variant: 'subtitle1', component: 'h2', sx: { fontWeight: 600 } } }}
      sx={{ pb: 0 }}
    />
    <CardContent>{children}</CardContent>
  </Card>
);

const Row = ({ label, children, strong }: { label: string; children: ReactNode; strong?: boolean }) => (
  <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.5 }}>
    <Typography variant="body2" color={strong ? 'text.primary' : 'text.secondary'} sx={{ fontWeight: strong ? 600 : undefined }}>
      {label}
    </Typography>
    <Typography variant="body2" component="div" sx={{ fontWeight: strong ? 600 : undefined, textAlign: 'right', overflowWrap: 'anywhere' }}>
      {children}
    </Typography>
  </Box>
);

/**
 * Quote Summary: Total, Products, PDR, Conventional, Replace / Paint, Push to Paint, Scratch / Paint (scratch spot and
 * paint work, never counted as replacement) and Tyres, in the client's currency.
 */
export const QuoteSummaryCard = ({
  totals,
  currency,
  status,
  revision,
}: {
  totals: QuoteTotals;
  currency: string;
  status?: QuoteStatus;
  revision?: number;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const money = (cents: number) => formatMoney(cents, currency, locale);
  const t = (key: string) => translate(`${T}.${key}`);
  return (
    <QuoteCard title={t('summary')} id="quote-summary-title">
      <Box data-testid="quote-summary">
        {status && (
          <Row label={translate('app.approval.status_label')}>
            <QuoteStatusChip status={status} revision={revision} />
          </Row>
        )}
        <Row label={t('total')} strong>
          {money(totals.grand_total)}
        </Row>
        <Divider sx={{ my: 0.5 }} />
        <Row label={t('products')}>{money(totals.product)}</Row>
        <Row label={t('repair_types.pdr')}>{money(totals.pdr)}</Row>
        <Row label={t('repair_types.conventional')}>{money(totals.conventional)}</Row>
        <Row label={t('repair_types.replacement')}>{money(totals.replacement)}</Row>
        <Row label={t('repair_types.p2p')}>{money(totals.p2p)}</Row>
        <Row label={t('repair_types.paint')}>{money(totals.paint)}</Row>
        <Row label={t('repair_types.tyre')}>{money(totals.tyre)}</Row>
        <Divider sx={{ my: 0.5 }} />
        <Row label={t('sub_total')}>{money(totals.sub_total)}</Row>
        <Row label={t('gst')}>{money(totals.tax)}</Row>
      </Box>
    </QuoteCard>
  );
};

/** Scan Details: Registration, Date/Time, Agent, Client and VIEW FULL SCAN DATA to /scans/{scanId}. */
export const ScanDetailsCard = ({ scan }: { scan: ScanInfo }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const t = (key: string) => translate(`${T}.${key}`);
  const nil = translate('app.scans.page.not_set');
  return (
    <QuoteCard title={t('scan_details')} id="quote-scan-details-title">
      <Row label={t('registration')}>{scan.licensePlate || nil}</Row>
      <Row label={t('date_time')}>{formatDateTime(scan.timestamp, locale) || nil}</Row>
      <Row label={t('agent')}>{scan.agent_name || nil}</Row>
      <Row label={t('client')}>{scan.client_name || nil}</Row>
      <Button component={LinkBase} to={`/scans/${scan.id}`} variant="outlined" fullWidth sx={{ mt: 1.5 }}>
        {t('view_scan')}
      </Button>
    </QuoteCard>
  );
};

/** Vehicle Damage Report: opens the scan's report PDF when there is one (the scan's `pdf_url`). */
export const DamageReportCard = ({ scanId }: { scanId: number }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data: scan, isPending } = useQuery({
    queryKey: ['scans', 'getOne', String(scanId)],
    queryFn: () => dataProvider.scan(scanId),
    retry: false,
  });
  const url = scan?.pdf_url ?? null;
  const t = (key: string) => translate(`${T}.${key}`);
  return (
    <QuoteCard title={t('damage_report')} id="quote-damage-report-title">
      {isPending ? (
        <Skeleton variant="text" />
      ) : url ? (
        <Link href={url} target="_blank" rel="noopener" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
          <PictureAsPdfIcon fontSize="small" />
          {t('open_report')}
        </Link>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('no_report')}
        </Typography>
      )}
    </QuoteCard>
  );
};

/**
 * Tyres: the agent's choice for each wheel (made on the scan page), priced from the client's tyre prices; Recheck Next
 * Visit is advisory, at 0; a price of 0 shows as missing from the client's price list.
 */
export const TyresCard = ({
  tyres,
  lines,
  currency,
}: {
  tyres: readonly QuoteTyreChoice[];
  lines: readonly PricedLine[];
  currency: string;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const t = (key: string) => translate(`${T}.${key}`);
  const byKey = new Map(lines.filter((l) => l.kind === 'tyre').map((l) => [l.panel_id, l]));
  return (
    <QuoteCard title={t('repair_types.tyre')} id="quote-tyres-title">
      {tyres.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('no_tyres')}
        </Typography>
      ) : (
        <Box data-testid="quote-tyres">
          {tyres.map((tyre) => {
            const line = byKey.get(tyreLineKey(tyre));
            const amount =
              line?.status === 'advisory'
                ? t('tyre_advisory')
                : line?.status === 'no-price'
                  ? t('tyre_price_missing')
                  : formatMoney(line?.line_total ?? 0, currency, locale);
            return (
              <Row key={tyreLineKey(tyre)} label={`${wheelName(tyre.label, locale)} – ${translate(`app.scanPage.tire.${tyre.choice}`)}`}>
                {amount}
              </Row>
            );
          })}
        </Box>
      )}
    </QuoteCard>
  );
};
