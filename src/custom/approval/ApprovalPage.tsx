import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { ImageViewer } from '../../components/ImageViewer';
import type { AppDataProvider } from '../../dataProvider';
import { formatDateTime } from '../../domain/format';
import { lineEvidence, lineName, lineWords } from '../../domain/invoice';
import { formatMoney, toCents } from '../../domain/money';
import type { ApprovalLineRecord, ApprovalPageRecord } from '../../domain/quote-approval';
import { SignaturePad } from './SignaturePad';

type Decision = { decision: 'approved' | 'declined'; reason: string };

const statusOf = (error: unknown) => (error as { status?: number } | null)?.status;

/**
 * The links whose page has taken the agent's language in this visit. Not a ref: react-admin remounts the whole page
 * on a language change, and the page would then apply the agent's language again over the customer's choice.
 */
const agentLanguageApplied = new Set<string>();

/**
 * /approve/{token}: the estimate a customer approves by link, without sign-in, in the agent's language (with a switch).
 * Each line with its evidence (the panel's images in the viewer, its dent and scratch counts) is approved or declined
 * (a reason to decline); the terms are accepted; the typed name and the drawn signature come last. Then the page is
 * read-only and says what was approved. An ended link says so and whom to ask for a new one.
 */
export const ApprovalPage = () => {
  const { token = '' } = useParams<{ token: string }>();
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const dataProvider = useDataProvider<AppDataProvider>();
  const page = useQuery({ queryKey: ['approval', token], queryFn: () => dataProvider.approvalPage(token), retry: false });
  const [answered, setAnswered] = useState<ApprovalPageRecord | null>(null);
  const data = answered ?? page.data;
  const t = (key: string, args?: object) => translate(`app.approval.page.${key}`, args);

  // The agent's language once per link and visit, when the page first has it; after that the customer's switch decides.
  const language = page.data?.agent.language;
  useEffect(() => {
    if (agentLanguageApplied.has(token) || (language !== 'ja' && language !== 'en')) return;
    agentLanguageApplied.add(token);
    setLocale(language);
  }, [language, setLocale, token]);

  return (
    <Box component="main" sx={{ maxWidth: 860, mx: 'auto', p: { xs: 1.5, sm: 3 }, display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          {data?.agent.logo && (
            <Box component="img" src={data.agent.logo} alt={data.agent.name ?? ''} sx={{ maxHeight: 48, maxWidth: 160 }} />
          )}
          <Typography component="h1" variant="h5">
            {t('title')}
          </Typography>
        </Box>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={locale}
          onChange={(_e, v: string | null) => {
            if (!v) return;
            // The customer's choice, even before the estimate (and the agent's language) has arrived.
            agentLanguageApplied.add(token);
            setLocale(v);
          }}
          aria-label={t('language')}
        >
          <ToggleButton value="en" lang="en">
            English
          </ToggleButton>
          <ToggleButton value="ja" lang="ja">
            日本語
          </ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {page.isPending && <Typography>{t('loading')}</Typography>}
      {page.error && <Alert severity="error">{statusOf(page.error) === 404 ? t('invalid') : t('failed')}</Alert>}
      {data && (data.state === 'expired' || data.state === 'revoked') && (
        <Alert severity="warning">
          <Typography sx={{ fontWeight: 600 }}>{t(data.state)}</Typography>
          <Typography>{t('ask', { name: [data.agent.name, data.agent.email, data.agent.phone].filter(Boolean).join(' · ') })}</Typography>
        </Alert>
      )}
      {data?.quote && <Estimate data={data} token={token} onAnswered={setAnswered} onEnded={() => void page.refetch()} />}
    </Box>
  );
};

function Estimate({
  data,
  token,
  onAnswered,
  onEnded,
}: {
  data: ApprovalPageRecord;
  token: string;
  onAnswered: (d: ApprovalPageRecord) => void;
  /** The link was answered elsewhere (409), revoked or expired (410) while this page was open. */
  onEnded: () => void;
}) {
  const quote = data.quote!;
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AppDataProvider>();
  const t = (key: string, args?: object) => translate(`app.approval.page.${key}`, args);
  const money = (amount: number) => formatMoney(toCents(amount), quote.currency, locale);
  const readOnly = data.state === 'answered';
  const [decisions, setDecisions] = useState<Record<string, Decision>>({});
  const [terms, setTerms] = useState(false);
  const [name, setName] = useState('');
  const [signature, setSignature] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Once 'Sign and send' was pressed too early, what is missing shows until every part is done.
  const [tried, setTried] = useState(false);
  const [viewer, setViewer] = useState<ApprovalLineRecord | null>(null);

  // A supplement's unchanged lines keep the earlier answer: only the others are asked.
  const asked = quote.lines.filter((l) => !l.carried);
  const complete =
    asked.every((l) => decisions[l.key] && (decisions[l.key].decision === 'approved' || decisions[l.key].reason.trim())) &&
    terms &&
    name.trim() !== '' &&
    signature !== null;

  const submit = async () => {
    if (!complete) {
      setTried(true);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const reply = await dataProvider.answerApproval(token, {
        decisions: asked.map((l) => ({
          key: l.key,
          decision: decisions[l.key].decision,
          reason: decisions[l.key].reason.trim() || undefined,
        })),
        terms_accepted: true,
        signer_name: name.trim(),
        signature: signature,
      });
      onAnswered(reply);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : t('failed'));
      // The page as the link stands now: the ended link's notice with whom to ask, or the answer given elsewhere.
      if (statusOf(e) === 409 || statusOf(e) === 410) onEnded();
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Card variant="outlined">
        <CardContent sx={{ display: 'grid', gap: 0.5 }}>
          <Typography component="h2" variant="h6">
            {quote.revision > 0 ? t('supplement', { id: quote.id, label: `S${quote.revision}` }) : t('estimate', { id: quote.id })}
          </Typography>
          {quote.revision > 0 && !readOnly && <Typography>{t('supplement_help')}</Typography>}
          <Typography>
            {t('vehicle')}: {[quote.registration, quote.make, quote.model].filter(Boolean).join(' · ')}
          </Typography>
          {quote.client_name && <Typography>{quote.client_name}</Typography>}
          {!readOnly && (
            <Typography color="text.secondary">{t('valid_until', { date: formatDateTime(quote.expires_at, locale) })}</Typography>
          )}
          <Typography sx={{ fontWeight: 600 }}>{t('totals', { total: money(quote.grand_total) })}</Typography>
        </CardContent>
      </Card>
      {data.answer && (
        <Alert severity={data.answer.status === 'declined' ? 'warning' : 'success'}>
          <Typography sx={{ fontWeight: 600 }}>{t(`result.${data.answer.status}`)}</Typography>
          <Typography>{t('approved_total', { total: money(data.answer.approved_total) })}</Typography>
          <Typography>{t('thanks', { at: formatDateTime(data.answer.decided_at, locale), name: data.answer.signer_name })}</Typography>
        </Alert>
      )}
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }} aria-label={t('line')}>
        {quote.lines.map((line) => {
          const d = decisions[line.key];
          const evidence = lineEvidence(line, quote.lines);
          const counts = (m: Record<string, number>) =>
            Object.entries(m)
              .filter(([, n]) => n > 0)
              .map(([level, n]) => `${translate(`app.quotes.generation.levels.${level}`, { _: level })} ${n}`)
              .join(', ');
          return (
            <Card component="li" variant="outlined" key={line.key}>
              <CardContent sx={{ display: 'grid', gap: 1 }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
                  <Typography component="h3" sx={{ fontWeight: 600 }}>
                    {lineName(line, locale)}
                  </Typography>
                  <Typography>{money(line.amount)}</Typography>
                </Box>
                {(line.added || line.before) && (
                  <Typography variant="body2" color="text.secondary" data-testid="line-change">
                    {line.before
                      ? t('line_before', {
                          before: [lineWords({ kind: line.kind, ...line.before }, locale), money(line.before.amount)]
                            .filter(Boolean)
                            .join(' '),
                        })
                      : t('line_added')}
                  </Typography>
                )}
                {counts(evidence.dents) && (
                  <Typography variant="body2">
                    {t('dents')}: {counts(evidence.dents)}
                  </Typography>
                )}
                {counts(evidence.scratchs) && (
                  <Typography variant="body2">
                    {t('scratches')}: {counts(evidence.scratchs)}
                  </Typography>
                )}
                {line.images.length > 0 && (
                  <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                    <Button size="small" variant="text" onClick={() => setViewer(line)}>
                      {t('images', { panel: line.label })} ({line.images.length})
                    </Button>
                  </Box>
                )}
                {readOnly || line.carried ? (
                  <Typography sx={{ fontWeight: 600 }}>
                    {line.decision === 'declined' ? t('declined_line', { reason: line.reason ?? '' }) : t('approved_line')}
                    {!readOnly && ` ${t('carried')}`}
                  </Typography>
                ) : (
                  <>
                    <ToggleButtonGroup
                      exclusive
                      size="small"
                      value={d?.decision ?? null}
                      aria-label={t('decision', { line: line.label })}
                      onChange={(_e, v: Decision['decision'] | null) =>
                        v && setDecisions((all) => ({ ...all, [line.key]: { decision: v, reason: all[line.key]?.reason ?? '' } }))
                      }
                    >
                      <ToggleButton value="approved" color="success">
                        {t('approve')}
                      </ToggleButton>
                      <ToggleButton value="declined" color="error">
                        {t('decline')}
                      </ToggleButton>
                    </ToggleButtonGroup>
                    {d?.decision === 'declined' && (
                      <TextField
                        size="small"
                        label={t('reason')}
                        required
                        value={d.reason}
                        onChange={(e) => setDecisions((all) => ({ ...all, [line.key]: { decision: 'declined', reason: e.target.value } }))}
                      />
                    )}
                  </>
                )}
              </CardContent>
            </Card>
          );
        })}
      </Box>
      {quote.removed.length > 0 && (
        <Card variant="outlined" component="section" aria-labelledby="approval-removed">
          <CardContent sx={{ display: 'grid', gap: 1 }}>
            <Typography component="h3" id="approval-removed" sx={{ fontWeight: 600 }}>
              {t('removed_title')}
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 0.5 }}>
              {quote.removed.map((line) => (
                <Typography component="li" key={line.key} data-testid="line-removed">
                  {lineName(line, locale)} <s>{money(line.amount)}</s>
                </Typography>
              ))}
            </Box>
          </CardContent>
        </Card>
      )}
      {!readOnly && asked.length === 0 && <Alert severity="info">{t('nothing_to_decide')}</Alert>}
      {!readOnly && (
        <Card variant="outlined">
          <CardContent sx={{ display: 'grid', gap: 1.5 }}>
            <Typography component="h2" variant="h6">
              {t('terms')}
            </Typography>
            <Box
              sx={{ maxHeight: 200, overflow: 'auto', border: 1, borderColor: 'divider', p: 1 }}
              tabIndex={0}
              dangerouslySetInnerHTML={{ __html: quote.terms }}
            />
            <FormControlLabel
              control={<Checkbox checked={terms} onChange={(e) => setTerms(e.target.checked)} />}
              label={t('accept_terms')}
            />
            <Typography component="h2" variant="h6">
              {t('signature')}
            </Typography>
            <TextField label={t('full_name')} required value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
            <Typography variant="body2" color="text.secondary">
              {t('draw')}
            </Typography>
            <SignaturePad label={t('signature')} onChange={setSignature} typedName={name} />
            {tried && !complete && <Alert severity="error">{t('incomplete')}</Alert>}
            {problem && <Alert severity="error">{problem}</Alert>}
            <Button variant="contained" size="large" onClick={() => void submit()} disabled={busy}>
              {busy ? t('submitting') : t('submit')}
            </Button>
          </CardContent>
        </Card>
      )}
      {viewer && (
        <ImageViewer
          images={viewer.images.map((src, i) => ({ src, alt: `${viewer.label} ${i + 1}` }))}
          start={0}
          onClose={() => setViewer(null)}
        />
      )}
    </>
  );
}
