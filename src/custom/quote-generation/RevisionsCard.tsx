import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { QuoteStatusChip } from '../../components/QuoteStatusChip';
import { useRevisionName } from '../../components/useRevisionName';
import type { AppDataProvider } from '../../dataProvider';
import { formatDateTime } from '../../domain/format';
import { formatMoney, toCents } from '../../domain/money';
import type { QuoteDeltaRecord, QuoteRevisionsRecord } from '../../domain/quote-revisions';
import { deltaRows, deltaWords, signedMoney } from '../../domain/supplement-block';
import { QuoteCard } from './SideCards';

const T = 'app.revisions';

/**
 * A supplement's delta report: the lines added, removed and changed since the revision sent before it, each with its
 * amount, and the grand total before → after.
 */
export function ChangesCard({ delta, currency, sinceLabel }: { delta: QuoteDeltaRecord; currency: string; sinceLabel: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const money = (amount: number) => formatMoney(toCents(amount), currency, locale);
  const signed = (amount: number) => signedMoney(toCents(amount), currency);
  const rows = deltaRows(delta).map((r) => ({
    key: r.key,
    kind: r.kind,
    label: r.label,
    detail: r.change
      ? translate(`${T}.change`, {
          before: [deltaWords(r.key, r.change.before, locale), money(r.change.before.amount)].filter(Boolean).join(' '),
          after: [deltaWords(r.key, r.change.after, locale), money(r.change.after.amount)].filter(Boolean).join(' '),
        })
      : deltaWords(r.key, r, locale),
    amount: signed(r.difference),
  }));
  return (
    <QuoteCard title={translate(`${T}.changes_title`, { revision: sinceLabel })} id="quote-changes-title">
      {rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate(`${T}.no_changes`)}
        </Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.75 }}>
          {rows.map((r) => (
            <Box component="li" key={r.key} sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
              <Typography variant="body2">
                <strong>{translate(`${T}.${r.kind}`)}</strong> {r.label}
                {r.detail && `: ${r.detail}`}
              </Typography>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {r.amount}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, mt: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {translate(`${T}.total`)}
        </Typography>
        <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="changes-total">
          {translate(`${T}.total_change`, {
            before: money(delta.total.before),
            after: money(delta.total.after),
            difference: signed(delta.total.difference),
          })}
        </Typography>
      </Box>
    </QuoteCard>
  );
}

/** A revision's file, opened in a new tab; named with the revision it belongs to. */
const FileButton = ({ href, label, of }: { href: string; label: string; of: string }) => (
  <Button size="small" component="a" href={href} target="_blank" rel="noopener noreferrer" aria-label={`${label}: ${of}`}>
    {label}
  </Button>
);

/** The revisions, oldest first: each with its status, total, when it was sent, its invoice and PDF, and the signed answer. */
export function RevisionList({ quoteId, data, currency }: { quoteId: number; data: QuoteRevisionsRecord; currency: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const revisionName = useRevisionName();
  const name = (r: { number: number }) => revisionName(r.number);
  return (
    <QuoteCard title={translate(`${T}.title`)} id="quote-revisions-title">
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {data.revisions.map((r) => (
          <Box component="li" key={r.number} sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Typography variant="body2" sx={{ fontWeight: 600, minWidth: 130 }}>
              {name(r)}
            </Typography>
            <QuoteStatusChip status={r.status} />
            <Typography variant="body2">{formatMoney(toCents(r.grand_total), currency, locale)}</Typography>
            <Typography variant="body2" color="text.secondary">
              {r.sent_at ? translate(`${T}.sent_at`, { date: formatDateTime(r.sent_at, locale) }) : translate(`${T}.not_sent`)}
            </Typography>
            <Box sx={{ display: 'flex', gap: 1, ml: 'auto' }}>
              <Button
                size="small"
                component={RouterLink}
                to={`/quotes/${quoteId}/invoice?revision=${r.number}`}
                aria-label={`${translate(`${T}.invoice`)}: ${name(r)}`}
              >
                {translate(`${T}.invoice`)}
              </Button>
              {r.pdf && <FileButton href={r.pdf} label={translate(`${T}.pdf`)} of={name(r)} />}
              {r.signed_pdf && <FileButton href={r.signed_pdf} label={translate(`${T}.signed_pdf`)} of={name(r)} />}
            </Box>
          </Box>
        ))}
      </Box>
    </QuoteCard>
  );
}

/** The key of a quote's revisions: a save (version) or a status change reloads them. */
export const revisionsKey = (quoteId: number, version?: number, status?: string) => ['quoteRevisions', quoteId, version, status];

/** Quote Generation's revisions and, for a supplement, its changes since the revision sent before it. */
export function QuoteRevisions({ quote }: { quote: { id: number; version?: number; status?: string; currency?: string } }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const revisions = useQuery({
    queryKey: revisionsKey(quote.id, quote.version, quote.status),
    queryFn: () => dataProvider.quoteRevisions(quote.id),
  });
  const data = revisions.data;
  if (!data) return null;
  const currency = quote.currency ?? '$';
  const since = data.delta && data.revisions.find((r) => r.number === data.delta!.since);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {data.delta && <ChangesCard delta={data.delta} currency={currency} sinceLabel={since?.label ?? translate(`${T}.since_original`)} />}
      {data.revisions.some((r) => r.sent_at) && <RevisionList quoteId={quote.id} data={data} currency={currency} />}
    </Box>
  );
}
