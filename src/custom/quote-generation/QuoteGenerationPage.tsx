import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Breadcrumbs,
  Button,
  Checkbox,
  CircularProgress,
  Collapse,
  FormControlLabel,
  FormGroup,
  Link,
  Skeleton,
  Switch,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useQuery } from '@tanstack/react-query';
import { LinkBase, useDataProvider, useLocaleState, useNavigate, useNotify, useParams, useTranslate } from 'react-admin';
import { useLoadError } from '../../components/useLoadError';
import type { AppDataProvider } from '../../dataProvider';
import { canChange } from '../../domain/access';
import { formatMoney, toCents } from '../../domain/money';
import { IMAGE_MAX_MB } from '../../domain/images';
import { supplementLabel } from '../../domain/quote-model';
import { formatDay } from '../../domain/format';
import { HistoryCard } from '../../components/HistoryCard';
import { ApprovalCard } from './ApprovalCard';
import { QuoteRevisions } from './RevisionsCard';
import { useCurrentUser } from '../../session';
import { useSelectOptions } from '../../components/useSelectOptions';
import { partOptions, productOptions, repricedSince, type Evaluation, type SavedQuote } from './evaluation';
import { useEvaluation, useQuotePreview, useQuoteSave, useSavedQuote } from './useQuoteSources';
import { useQuoteVersion } from './useQuoteVersion';
import { PanelCard } from './PanelCard';
import { PanelDamageDialog } from './PanelDamageDialog';
import { PartsEditor, ProductsEditor, VehiclePhoto } from './QuoteExtras';
import {
  groupByView,
  initialForm,
  panelDamage,
  quoteBody,
  recountPanels,
  setCategory,
  setLargeVehicle,
  setRepairType,
  setScratchRepair,
  setToggle,
  splitByDamage,
  type QuoteForm,
  type QuotePanel,
  type Toggle,
} from './quoteForm';
import { DamageReportCard, QuoteCard, QuoteSummaryCard, ScanDetailsCard, TyresCard } from './SideCards';
import { useDraft } from '../../components/FormDraft';
import { reapplyEdits } from '../../domain/versions';
import { useLeaveGuard } from '../../components/useLeaveGuard';

const T = 'app.quotes.generation';

interface PanelGroup {
  id: number;
  name: string;
  position: number | null;
}

const toGroups = (reply: unknown): PanelGroup[] =>
  (Array.isArray(reply) ? reply : [])
    .filter(
      (g): g is { id: number; name?: unknown; position?: unknown } =>
        typeof g === 'object' && g !== null && typeof (g as { id?: unknown }).id === 'number',
    )
    .map((g) => ({
      id: g.id,
      name: typeof g.name === 'string' ? g.name : '',
      position: typeof g.position === 'number' ? g.position : null,
    }));

/**
 * The three calls the screen starts from: the scan's evaluation, the car views and the scan's quote (if any). The
 * evaluation prices only the new damage while the switch is on: as the saved quote left it until the assessor flips it.
 */
function useQuoteSources(scanId: string, newDamageChoice: boolean | null) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const saved = useSavedQuote(scanId);
  const newDamageOnly = newDamageChoice ?? saved.data?.new_damage_only === 1;
  const evaluation = useEvaluation(scanId, newDamageOnly);
  const groups = useQuery({
    queryKey: ['panelgroups', 'positions'],
    queryFn: async () => toGroups(await dataProvider.panelGroupPositions()),
    retry: false,
    staleTime: 5 * 60_000,
  });
  return { evaluation, groups, saved, newDamageOnly };
}

const SwitchRow = ({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  disabled: boolean;
}) => (
  <FormControlLabel
    control={<Switch checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />}
    label={label}
  />
);

interface EditorProps {
  evaluation: Evaluation;
  groups: PanelGroup[];
  saved: SavedQuote | null;
  withManualCheck: boolean;
  /** Without `quote_edit`: the saved quote shown, nothing changed or saved; its invoice and PDF open. */
  readOnly: boolean;
  /** With `scan_edit`: a panel card opens the damage modal to change the scan's counts. */
  canEditDamage: boolean;
  /** "Price only the new damage" flipped: the screen asks for the other evaluation and starts the form from it. */
  onNewDamageOnly: (on: boolean) => void;
}

/** Where the sticky Quote Summary's box stops: under the header's toolbar (64 px from md up); its top padding is the gap. */
const SUMMARY_TOP = 64;

/** The phone's bar: the grand total and the save button, stuck to the bottom of the screen while the form scrolls. */
const SaveBar = ({ total, children }: { total: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box
      role="region"
      aria-label={translate(`${T}.save_bar`)}
      // The page's scroll padding keeps a focused control above the bar (index.html).
      data-sticky-bottom=""
      sx={{
        // Sticky, not fixed: the bar keeps its own place at the end of the page, so it never covers the last field.
        position: 'sticky',
        bottom: 0,
        zIndex: 2,
        mx: { xs: -1, sm: -2 },
        px: { xs: 1, sm: 2 },
        py: 1,
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 1,
        bgcolor: 'background.paper',
        borderTop: 1,
        borderColor: 'divider',
        boxShadow: 3,
      }}
    >
      <Box sx={{ display: 'grid' }}>
        <Typography variant="caption" color="text.secondary">
          {translate(`${T}.total`)}
        </Typography>
        <Typography sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>{total}</Typography>
      </Box>
      {children}
    </Box>
  );
};

const QuoteEditor = ({ evaluation, groups, saved, withManualCheck, readOnly, canEditDamage, onNewDamageOnly }: EditorProps) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`${T}.${key}`, options);
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const desktop = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), { noSsr: true });
  const [form, setForm] = useState<QuoteForm>(() => initialForm(evaluation.panels, evaluation.measures, saved));
  // The form as it was loaded: unsaved changes are the differences from it.
  const [pristine, setPristine] = useState<QuoteForm>(form);
  const [photo, setPhoto] = useState<File | null>(null);
  const [savedPhoto, setSavedPhoto] = useState<string | null>(saved?.vehicle_photo ?? null);
  const { data: productLists = [] } = useSelectOptions('products');
  const { data: partLists = [] } = useSelectOptions('parts');
  const products = useMemo(() => productOptions(productLists, evaluation.productIds), [productLists, evaluation.productIds]);
  const parts = useMemo(() => partOptions(partLists, evaluation.partIds), [partLists, evaluation.partIds]);
  const [deletingPhoto, setDeletingPhoto] = useState(false);
  // Panels the assessor changed on this visit: they stay among the damaged ones even if their counts drop to none.
  const [touched, setTouched] = useState<ReadonlySet<number>>(() => new Set());
  const touch = (panel: QuotePanel) => setTouched((ids) => (ids.has(panel.id) ? ids : new Set(ids).add(panel.id)));
  const [showUndamaged, setShowUndamaged] = useState(false);

  // The damage modal: counts saved on the scan, the evaluation asked again, the edited panels recounted.
  const [editingDamage, setEditingDamage] = useState<QuotePanel | null>(null);
  const measuresSeen = useRef(evaluation.measures);
  useEffect(() => {
    const before = measuresSeen.current;
    measuresSeen.current = evaluation.measures;
    if (before === evaluation.measures) return;
    setForm((f) => recountPanels(f, evaluation.panels, before, evaluation.measures));
    // The counts are saved on the scan already: a recount alone leaves nothing unsaved.
    setPristine((f) => recountPanels(f, evaluation.panels, before, evaluation.measures));
  }, [evaluation.measures, evaluation.panels]);

  const dirty = useMemo(() => photo !== null || JSON.stringify(form) !== JSON.stringify(pristine), [form, pristine, photo]);
  const leaveGuard = useLeaveGuard(dirty && !readOnly);
  // A session ending under the form keeps the assessor's choices (not a chosen photo): back on the page, they are put
  // on the quote as read then, as the conflict dialog's Re-apply does.
  const captureDraft = useCallback(
    () => (!readOnly && JSON.stringify(form) !== JSON.stringify(pristine) ? { base: pristine, mine: form } : null),
    [form, pristine, readOnly],
  );
  const restoreDraft = useCallback(
    ({ base, mine }: { base: QuoteForm; mine: QuoteForm }) => setForm((now) => reapplyEdits(base, mine, now)),
    [],
  );
  useDraft(captureDraft, restoreDraft);

  // A car panel in two car views (a front guard in Front and Left) is priced once: useQuotePreview.
  const { shown, pricing: live, context } = useQuotePreview(evaluation, saved, form);
  // A reader is shown the quote as it was saved (as its invoice and PDF show it), not its choices at today's prices.
  const pricing = readOnly && saved?.pricing ? saved.pricing : live;
  const versioned = useQuoteVersion(evaluation, saved, form, setForm, !readOnly);
  const views = useMemo(() => groupByView(shown, groups), [shown, groups]);
  const split = useMemo(() => splitByDamage(views, evaluation.measures, form, touched), [views, evaluation.measures, form, touched]);
  const toggle = (name: Toggle) => (value: boolean) => setForm((f) => setToggle(f, name, value));

  const { save, saving, showErrors } = useQuoteSave(form, async () => {
    const body = quoteBody(form, {
      ...context,
      photo,
      withManualCheck,
    });
    body.append('version', String(versioned.version));
    body.append('new_damage_only', evaluation.newDamageOnly ? '1' : '0');
    const reply = await dataProvider.saveQuote(body).catch((error: unknown) => {
      if (versioned.caught(error)) return null;
      throw error;
    });
    if (reply === null) return;
    const id = reply && typeof reply === 'object' ? reply.id : undefined;
    if (typeof id !== 'number' && typeof id !== 'string') throw new Error('app.error.server');
    notify(`${T}.generated`, { type: 'success' });
    leaveGuard.release();
    navigate(`/quotes/${encodeURIComponent(String(id))}/invoice`);
  });

  const deleteSavedPhoto = async () => {
    if (!saved) return;
    setDeletingPhoto(true);
    try {
      await dataProvider.deleteQuoteVehiclePhoto(saved.id);
      setSavedPhoto(null);
    } catch (error) {
      // A failed photo delete is only logged.
      console.error(error);
    } finally {
      setDeletingPhoto(false);
    }
  };

  const saveButton = (
    <Button
      variant="contained"
      // The phone's bar holds the total beside it in 360 px.
      size={desktop ? 'large' : 'medium'}
      disabled={saving}
      aria-busy={saving}
      onClick={() => void save()}
      startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
    >
      {t(saving ? 'saving' : 'save')}
    </Button>
  );

  const viewSections = (list: typeof views, part: string) =>
    list.map(({ group, panels }) => (
      <Box key={group.id} component="section" aria-labelledby={`${part}-view-${group.id}`} sx={{ display: 'grid', gap: 1.5 }}>
        <Typography id={`${part}-view-${group.id}`} component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {group.name}
        </Typography>
        <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' } }}>
          {panels.map((panel) => (
            <PanelCard
              key={panel.id}
              panel={panel}
              choice={form.panels[String(panel.id)]}
              damage={panelDamage(evaluation.measures, panel.carPanel)}
              client={evaluation.client}
              lines={pricing.lines.filter((l) => l.panel_id === panel.id)}
              onRepairType={(to) => {
                touch(panel);
                setForm((f) => setRepairType(f, panel, to, panelDamage(evaluation.measures, panel.carPanel).scratches));
              }}
              onCategory={(to) => {
                touch(panel);
                setForm((f) => setCategory(f, panel, to));
              }}
              onScratchRepair={(to) => {
                touch(panel);
                setForm((f) => setScratchRepair(f, panel, to));
              }}
              onEditDamage={
                canEditDamage && !readOnly
                  ? () => {
                      touch(panel);
                      setEditingDamage(panel);
                    }
                  : undefined
              }
              readOnly={readOnly}
            />
          ))}
        </Box>
      </Box>
    ));

  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 2fr)' },
        alignItems: 'start',
      }}
    >
      {leaveGuard.dialog}
      {versioned.dialog}
      {editingDamage && <PanelDamageDialog scanId={evaluation.scan.id} panel={editingDamage} onClose={() => setEditingDamage(null)} />}
      {/* The side column runs the full height of the form, so its summary can stay in view over the panel list. */}
      <Box sx={{ display: 'grid', gap: 2, minWidth: 0, alignSelf: 'stretch', alignContent: 'start' }}>
        <Box
          sx={{
            display: 'grid',
            gap: 1.5,
            position: { md: 'sticky' },
            top: { md: SUMMARY_TOP },
            zIndex: 2,
            // The page's background above the card hides what scrolls beneath the stuck summary.
            mt: { md: -2 },
            pt: { md: 2 },
            bgcolor: 'background.default',
          }}
        >
          <QuoteSummaryCard
            totals={pricing.totals}
            currency={evaluation.client.currency}
            status={saved?.status}
            revision={saved?.revision}
          />
          {saved && !dirty && typeof saved.grant_total === 'number' && repricedSince(saved, live.totals) && (
            <Alert severity="info" sx={{ mt: 1 }}>
              {readOnly
                ? t('repriced_read_only', { total: formatMoney(live.totals.grand_total, evaluation.client.currency, locale) })
                : t('repriced', { total: formatMoney(toCents(saved.grant_total), saved.currency ?? evaluation.client.currency, locale) })}
            </Alert>
          )}
          {saved && !readOnly && saved.status && saved.status !== 'draft' && (
            <Alert severity="warning" sx={{ mt: 1 }}>
              {t('starts_supplement', { label: supplementLabel((saved.revision ?? 0) + 1) ?? '' })}
            </Alert>
          )}
          {evaluation.newDamageOnly && evaluation.comparedWith && (
            <NewDamageNote evaluation={evaluation} panels={evaluation.panels} locale={locale} />
          )}
          {desktop && !readOnly && saveButton}
        </Box>
        {evaluation.tyres.length > 0 && <TyresCard tyres={evaluation.tyres} lines={pricing.lines} currency={evaluation.client.currency} />}
        <ScanDetailsCard scan={evaluation.scan} />
        <DamageReportCard scanId={evaluation.scan.id} />
      </Box>
      <QuoteCard title={t('details')} id="quote-details-title">
        <Box sx={{ display: 'grid', gap: 3, minWidth: 0 }}>
          {readOnly && <Alert severity="info">{t('read_only')}</Alert>}
          <FormGroup row sx={{ columnGap: 2 }}>
            <SwitchRow label={t('metallic')} checked={form.metallic} onChange={toggle('metallic')} disabled={readOnly} />
            <SwitchRow label={t('pearl')} checked={form.pearl} onChange={toggle('pearl')} disabled={readOnly} />
            <SwitchRow label={t('aluminium')} checked={form.aluminium} onChange={toggle('aluminium')} disabled={readOnly} />
            <SwitchRow
              label={t('lg_vehicle')}
              checked={form.vehicle_type === 'L'}
              onChange={(v) => setForm((f) => setLargeVehicle(f, 'L', v))}
              disabled={readOnly}
            />
            <SwitchRow
              label={t('xl_vehicle')}
              checked={form.vehicle_type === 'XL'}
              onChange={(v) => setForm((f) => setLargeVehicle(f, 'XL', v))}
              disabled={readOnly}
            />
            {evaluation.comparedWith && (
              <SwitchRow label={t('new_damage_only')} checked={evaluation.newDamageOnly} onChange={onNewDamageOnly} disabled={readOnly} />
            )}
          </FormGroup>

          {split.damaged.length === 0 && (
            <Typography variant="body2" color="text.secondary">
              {t('no_damage')}
            </Typography>
          )}
          {viewSections(split.damaged, 'damaged')}
          {split.undamagedCount > 0 && (
            <Box sx={{ display: 'grid', gap: 1.5 }}>
              <Box>
                <Button
                  variant="outlined"
                  aria-expanded={showUndamaged}
                  aria-controls="quote-undamaged-panels"
                  onClick={() => setShowUndamaged((open) => !open)}
                  startIcon={showUndamaged ? <ExpandLessIcon /> : <ExpandMoreIcon />}
                >
                  {showUndamaged ? t('hide_undamaged') : t('show_undamaged', { count: split.undamagedCount })}
                </Button>
              </Box>
              {/* Kept mounted while folded (hidden from sight, focus and screen readers): opening it is instant. */}
              <Collapse in={showUndamaged} id="quote-undamaged-panels">
                <Box sx={{ display: 'grid', gap: 3 }}>{viewSections(split.undamaged, 'undamaged')}</Box>
              </Collapse>
            </Box>
          )}

          <Box component="section" aria-labelledby="quote-products-title" sx={{ display: 'grid', gap: 1.5 }}>
            <Typography id="quote-products-title" component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
              {t('add_products')}
            </Typography>
            <ProductsEditor
              rows={form.products}
              options={products}
              onChange={(products) => setForm((f) => ({ ...f, products }))}
              onDuplicate={() => notify(`${T}.duplicate_product`, { type: 'error' })}
              showErrors={showErrors}
              readOnly={readOnly}
            />
          </Box>

          <Box component="section" aria-labelledby="quote-parts-title" sx={{ display: 'grid', gap: 1.5 }}>
            <Typography id="quote-parts-title" component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
              {t('add_parts')}
            </Typography>
            <PartsEditor value={form.parts} options={parts} onChange={(parts) => setForm((f) => ({ ...f, parts }))} readOnly={readOnly} />
          </Box>

          <Box component="section" aria-labelledby="quote-photo-title" sx={{ display: 'grid', gap: 1.5 }}>
            <Typography id="quote-photo-title" component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
              {t('vehicle_photo')}
            </Typography>
            <VehiclePhoto
              savedUrl={savedPhoto}
              file={photo}
              busy={saving || deletingPhoto}
              onFile={setPhoto}
              onDeleteSaved={() => void deleteSavedPhoto()}
              onRejected={(reason) =>
                reason === 'size'
                  ? notify('app.validation.file_size', {
                      type: 'error',
                      messageArgs: { field: t('vehicle_photo'), mb: IMAGE_MAX_MB },
                    })
                  : notify(`${T}.photo_only_images`, { type: 'error' })
              }
              readOnly={readOnly}
            />
          </Box>

          <TextField
            label={t('comments')}
            multiline
            minRows={3}
            value={form.assessor_comments}
            onChange={(event) => setForm((f) => ({ ...f, assessor_comments: event.target.value }))}
            // Read, not greyed out: the assessor's words stay legible.
            slotProps={{ input: { readOnly } }}
          />

          {withManualCheck && (
            <FormControlLabel
              control={
                <Checkbox
                  checked={form.manual_check}
                  disabled={readOnly}
                  onChange={(event) => setForm((f) => ({ ...f, manual_check: event.target.checked }))}
                />
              }
              label={t('manual_check')}
            />
          )}

          {readOnly && saved && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: 1.5 }}>
              <QuoteDocuments quote={saved} />
            </Box>
          )}
        </Box>
      </QuoteCard>
      {!desktop && !readOnly && (
        <SaveBar total={formatMoney(pricing.totals.grand_total, evaluation.client.currency, locale)}>{saveButton}</SaveBar>
      )}
    </Box>
  );
};

/**
 * What a new-damage-only estimate rests on: 'New damage only (compared with the scan of DD-MM-YYYY)', and the panels
 * damaged before, listed at 0.
 */
const NewDamageNote = ({ evaluation, panels, locale }: { evaluation: Evaluation; panels: readonly QuotePanel[]; locale: string }) => {
  const translate = useTranslate();
  const label = (carPanel: string) => panels.find((p) => p.carPanel === carPanel)?.label ?? carPanel;
  return (
    <Alert severity="info" role="status">
      {translate(`${T}.new_damage_note`, { date: formatDay(evaluation.comparedWith, locale) })}
      {evaluation.preExisting.length > 0 && (
        <Box component="span" sx={{ display: 'block' }}>
          {translate(`${T}.pre_existing`, {
            amount: formatMoney(0, evaluation.client.currency, locale),
            panels: evaluation.preExisting.map(label).join(', '),
          })}
        </Box>
      )}
      {evaluation.partlyPreExisting.length > 0 && (
        <Box component="span" sx={{ display: 'block' }}>
          {translate(`${T}.partly_pre_existing`, { panels: evaluation.partlyPreExisting.map(label).join(', ') })}
        </Box>
      )}
    </Alert>
  );
};

/** The saved quote's invoice and PDF: what the read-only view offers instead of saving. */
const QuoteDocuments = ({ quote }: { quote: SavedQuote }) => {
  const translate = useTranslate();
  return (
    <>
      {quote.pdf_url && (
        <Button component="a" href={quote.pdf_url} target="_blank" rel="noopener noreferrer" variant="outlined" size="large">
          {translate('app.quotes.actions.pdf')}
        </Button>
      )}
      <Button component={LinkBase} to={`/quotes/${quote.id}/invoice`} variant="contained" size="large">
        {translate('app.quotes.actions.invoice')}
      </Button>
    </>
  );
};

/**
 * /quotes/{scanId} and the agent variant /quotes/{scanId}/agents/{agentId}: the scan's quote, priced live
 * with the domain's engine, saved with `POST quotes`, then its invoice. Without an agent id the assessor may ask for a
 * quote check. Without `quote_edit` it is a read-only view of the saved quote (docs/ARCHITECTURE.md, "Access model").
 */
export const QuoteGenerationPage = () => {
  const translate = useTranslate();
  const { scanId = '', agentId } = useParams<{ scanId: string; agentId?: string }>();
  const [newDamageChoice, setNewDamageChoice] = useState<boolean | null>(null);
  const { evaluation, groups, saved, newDamageOnly } = useQuoteSources(scanId, newDamageChoice);
  const error = evaluation.error ?? saved.error ?? groups.error;
  const user = useCurrentUser();
  const readOnly = !canChange(user, 'quotes');
  // The history names a tyre change by the wheel's label on this vehicle.
  const tyres = evaluation.data?.tyres;
  const wheels = useMemo(() => new Map((tyres ?? []).map((t) => [`${t.row}${t.direction}`, t.label])), [tyres]);

  // '{Name} Not Found', then the list after 300 ms.
  useLoadError(error, 'app.scans.page.scan', '/quotes');

  const loaded = Boolean(evaluation.data && groups.data && saved.isSuccess);
  // A reply renders synchronously (react-query's store): the editor follows in a transition React can pause, so the
  // data's arrival is not one long task. The skeleton stays until it does.
  const shown = useDeferredValue(loaded);
  const ready = shown && evaluation.data && groups.data && saved.isSuccess;
  return (
    <Box sx={{ minWidth: 0 }}>
      <Breadcrumbs aria-label={translate('app.crud.breadcrumb')} separator=">" sx={{ mb: 2 }}>
        <Link component={LinkBase} to="/quotes" underline="hover" color="inherit">
          {translate('app.quotes.title')}
        </Link>
        <Typography color="text.primary" component="h1" variant="h6">
          {translate(`${T}.title`)}
        </Typography>
      </Breadcrumbs>
      {ready && readOnly && !saved.data ? (
        // Nothing to show an insurer but the scan: a preview at default choices is no estimate.
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 2fr)' } }}>
          <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
            <ScanDetailsCard scan={(evaluation.data as Evaluation).scan} />
            <DamageReportCard scanId={(evaluation.data as Evaluation).scan.id} />
          </Box>
          <Alert severity="info" sx={{ alignSelf: 'start' }}>
            {translate(`${T}.no_quote`)}
          </Alert>
        </Box>
      ) : ready ? (
        <QuoteEditor
          // A reloaded quote (another scan) starts a fresh form.
          key={`${scanId}:${saved.data?.id ?? 'new'}:${newDamageOnly ? 'new-damage' : 'all'}`}
          evaluation={evaluation.data as Evaluation}
          groups={groups.data}
          saved={saved.data ?? null}
          withManualCheck={!agentId}
          readOnly={readOnly}
          canEditDamage={canChange(user, 'scans')}
          onNewDamageOnly={setNewDamageChoice}
        />
      ) : (
        !error &&
        (evaluation.isPending || groups.isPending || saved.isPending || loaded) && (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 2fr)' } }}>
            <Skeleton variant="rounded" height={320} />
            <Skeleton variant="rounded" height={480} />
          </Box>
        )
      )}
      {ready && saved.data && (
        <Box sx={{ mt: 2 }}>
          <QuoteRevisions quote={saved.data} />
        </Box>
      )}
      {ready && saved.data && (
        <Box sx={{ mt: 2 }}>
          <ApprovalCard quote={saved.data} scanId={scanId} canEdit={!readOnly} />
        </Box>
      )}
      {ready && saved.data && (
        <Box sx={{ mt: 2 }}>
          <HistoryCard
            subject="quote"
            id={saved.data.id}
            changed={saved.data}
            currency={saved.data.currency ?? evaluation.data?.client.currency}
            wheels={wheels}
          />
        </Box>
      )}
      {evaluation.isSuccess && evaluation.data === null && <Typography color="text.secondary">{translate(`${T}.unavailable`)}</Typography>}
    </Box>
  );
};
