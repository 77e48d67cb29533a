import { useState } from 'react';
import {
  Box,
  Button,
  ButtonBase,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { ImageViewer } from '../../components/ImageViewer';
import { useNotifyError } from '../../components/useNotifyError';
import type { AppDataProvider } from '../../dataProvider';
import { DAMAGE_LEVELS, type DamageLevel, type DamageType } from '../../domain/scan-codes';
import { damageImageText } from '../../domain/damage-images';
import { imageSources } from '../../domain/images';
import { emptyCounts, panelDetections, parseCount } from '../../domain/scan-view';
import type { ConflictInfo } from '../../domain/versions';
import { Empty } from './Section';
import { useScanConflict } from './useScanConflict';
import { useScanPage, type Scan } from './context';

type Kind = 'all' | DamageType;
type Drafts = Record<DamageType, Record<DamageLevel, string>>;

const draftsOf = (scan: Scan, carPanel: string): Drafts => {
  const of = (type: DamageType) => {
    const counts = { ...emptyCounts(), ...scan.measures[type][carPanel] };
    return Object.fromEntries(DAMAGE_LEVELS.map((l) => [l, String(counts[l])])) as Record<DamageLevel, string>;
  };
  return { dents: of('dents'), scratchs: of('scratchs') };
};

export type Detection = Scan['damages'][number];

/** A detection's close-up with its measures in mm; a click or Enter opens it in the viewer. */
/** A close-up is half a phone's width, and under 320 px (its grid's minimum is 160) from the small breakpoint up. */
export const CLOSE_UP_SIZES = '(max-width: 599px) 50vw, 320px';

export const DetectionImage = ({ damage, name, onOpen }: { damage: Detection; name: string; onOpen: () => void }) => {
  const translate = useTranslate();
  const level = (l: string) => translate(`app.scanPage.level.${l}`, { _: l });
  return (
    <Box component="figure" sx={{ m: 0, border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}>
      {damage.src ? (
        <ButtonBase
          onClick={onOpen}
          aria-label={translate('app.imageViewer.open', { name })}
          aria-haspopup="dialog"
          sx={{ display: 'block', width: '100%', cursor: 'zoom-in' }}
        >
          <Box
            component="img"
            {...imageSources(damage.src, CLOSE_UP_SIZES)}
            alt={name}
            decoding="async"
            sx={{ width: '100%', aspectRatio: '1', objectFit: 'cover', display: 'block' }}
          />
        </ButtonBase>
      ) : (
        <Box sx={{ width: '100%', aspectRatio: '1', bgcolor: 'grey.100' }} aria-hidden />
      )}
      <Box component="figcaption" sx={{ p: 0.75, fontSize: 12 }}>
        {(damage.data.length ? damage.data : [{ measure: damage.level, width_mm: damage.width_mm, height_mm: damage.height_mm }]).map(
          (m, i) => (
            <div key={i}>
              {translate('app.scanPage.modal.measure', { level: level(m.measure), width: m.width_mm, height: m.height_mm })}
            </div>
          ),
        )}
      </Box>
    </Box>
  );
};

const ImageGrid = ({
  items,
  title,
  empty,
  nameOf,
  onOpen,
}: {
  items: Detection[];
  title: string;
  empty: string;
  nameOf: (d: Detection) => string;
  onOpen: (d: Detection) => void;
}) => (
  <Box component="section" sx={{ mt: 2 }}>
    <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
      {title}
    </Typography>
    {items.length === 0 ? (
      <Empty>{empty}</Empty>
    ) : (
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(min(160px, 100%), 1fr))' }}>
        {items.map((d) => (
          <DetectionImage key={d.id} damage={d} name={nameOf(d)} onOpen={() => onOpen(d)} />
        ))}
      </Box>
    )}
  </Box>
);

/**
 * A panel's damage modal. The All / Dent / Scratch filter, the panel's views, its dent and scratch images
 * with their measures in mm, and its counts per level, saved by `POST scans/arch/edit-damage-count` (the totals, the
 * chips and the list row follow; a success closes the modal, a failure leaves it open).
 */
export const DamageModal = (props: Omit<DamageCountDialogProps, 'scan' | 'reload' | 'readOnly'>) => {
  const { scan, reload, canEditScan } = useScanPage();
  return <DamageCountDialog {...props} scan={scan} reload={reload} readOnly={!canEditScan} />;
};

interface DamageCountDialogProps {
  scan: Scan;
  /** After a save: the scan (and what is computed from it) asked for again. */
  reload: () => Promise<unknown>;
  carPanel: string;
  label: string;
  views: { id: number; name: string; image: string | null }[];
  onClose: () => void;
  /** Without `scan_edit`: the counts are shown, not edited (docs/ARCHITECTURE.md, "Access model"). */
  readOnly?: boolean;
}

/** The damage modal without the scan page around it: Quote Generation's panel cards open it too. */
export const DamageCountDialog = ({ scan, reload, carPanel, label, views, onClose, readOnly = false }: DamageCountDialogProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [kind, setKind] = useState<Kind>('all');
  const [opened] = useState<Drafts>(() => draftsOf(scan, carPanel));
  const [drafts, setDrafts] = useState<Drafts>(opened);
  const [saving, setSaving] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const { dents, scratchs } = panelDetections(scan.damages, carPanel, kind);
  // The viewer steps through the close-ups the modal shows, dents then scratches.
  const shown = [...dents, ...scratchs].filter((d) => d.src);
  const nameOf = (d: Detection) => damageImageText(d, translate, label);
  const invalid = (['dents', 'scratchs'] as const).some((t) => DAMAGE_LEVELS.some((l) => parseCount(drafts[t][l]) === null));
  const m = (k: string, args?: Record<string, unknown>) => translate(`app.scanPage.modal.${k}`, args);

  // The counts shown were read at this version: the save is made from it (a change meanwhile is a conflict).
  const [openedAt] = useState(scan.version);
  // Reload closes the modal: opened again, it shows the current counts.
  const conflicts = useScanConflict(reload, onClose);

  const save = async (version = openedAt, meanwhile?: ConflictInfo) => {
    // Re-applied over a save made meanwhile: the levels this user changed are theirs, the others what was saved.
    const count = (t: DamageType, l: DamageLevel) => {
      const saved = meanwhile?.changes?.find((c) => c.field === `counts.${carPanel}.${t}.${l}`);
      if (!saved || drafts[t][l] !== opened[t][l]) return parseCount(drafts[t][l]) ?? 0;
      return typeof saved.value === 'number' ? saved.value : 0;
    };
    const counts = (t: DamageType) => Object.fromEntries(DAMAGE_LEVELS.map((l) => [l, count(t, l)]));
    setSaving(true);
    try {
      await dataProvider.editDamageCount({
        scan_id: scan.id,
        car_panel: carPanel,
        dents: counts('dents'),
        scratchs: counts('scratchs'),
        version,
      });
      await reload();
      notify('app.scanPage.modal.counts_saved', { type: 'success' });
      // Done: the modal was opened at a version the save has moved on from, so a second save from it would be a
      // conflict with oneself; opened again, it reads the counts and the version as they now are.
      onClose();
    } catch (error) {
      // The modal stays open.
      if (conflicts.caught(error, save)) return;
      console.warn('edit-damage-count failed', error);
      notifyError(error);
    } finally {
      setSaving(false);
    }
  };

  const open = (d: Detection) => setViewing(shown.findIndex((x) => x.id === d.id));
  const noneAtAll = kind === 'all' && dents.length === 0 && scratchs.length === 0;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="damage-modal-title">
      <DialogTitle id="damage-modal-title">{m('title', { panel: label })}</DialogTitle>
      <DialogContent dividers>
        <ToggleButtonGroup exclusive size="small" value={kind} onChange={(_, v: Kind | null) => v && setKind(v)} aria-label={m('filter')}>
          <ToggleButton value="all">{m('all')}</ToggleButton>
          <ToggleButton value="dents">{m('dent')}</ToggleButton>
          <ToggleButton value="scratchs">{m('scratch')}</ToggleButton>
        </ToggleButtonGroup>
        {views.length > 0 && (
          <Box component="ul" aria-label={m('views')} sx={{ display: 'flex', gap: 1, overflowX: 'auto', listStyle: 'none', p: 0, my: 2 }}>
            {views.map((v) => (
              <Box component="li" key={v.id} sx={{ flex: 'none', textAlign: 'center' }}>
                {v.image && (
                  <Box
                    component="img"
                    {...imageSources(v.image, '100px')}
                    alt={v.name}
                    decoding="async"
                    sx={{ width: 100, height: 50, objectFit: 'contain', display: 'block', border: 1, borderColor: 'divider' }}
                  />
                )}
                <Typography variant="caption">{v.name}</Typography>
              </Box>
            ))}
          </Box>
        )}
        {noneAtAll ? (
          <Box sx={{ mt: 2 }}>
            <Empty>{m('no_damage_detected')}</Empty>
          </Box>
        ) : (
          <>
            {kind !== 'scratchs' && (
              <ImageGrid items={dents} title={m('dent_images')} empty={m('dent_not_available')} nameOf={nameOf} onOpen={open} />
            )}
            {kind !== 'dents' && (
              <ImageGrid items={scratchs} title={m('scratch_images')} empty={m('damages_not_available')} nameOf={nameOf} onOpen={open} />
            )}
          </>
        )}
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 3 }}>
          <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
            {m('counts')}
          </Typography>
          {(['dents', 'scratchs'] as const).map((t) => (
            <Box key={t} sx={{ mb: 1.5 }}>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
                {translate(`app.scanPage.${t}`)}
              </Typography>
              {readOnly ? (
                <Box
                  component="dl"
                  sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(88px, 1fr))', m: 0 }}
                  data-testid={`counts-${t}`}
                >
                  {DAMAGE_LEVELS.map((l) => (
                    <Box key={l}>
                      <Typography component="dt" variant="caption" color="text.secondary">
                        {translate(`app.scanPage.level.${l}`)}
                      </Typography>
                      <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                        {drafts[t][l]}
                      </Typography>
                    </Box>
                  ))}
                </Box>
              ) : (
                <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(88px, 1fr))' }}>
                  {DAMAGE_LEVELS.map((l) => {
                    const bad = parseCount(drafts[t][l]) === null;
                    return (
                      <TextField
                        key={l}
                        size="small"
                        type="number"
                        label={translate(`app.scanPage.level.${l}`)}
                        value={drafts[t][l]}
                        error={bad}
                        helperText={bad ? m('count_invalid') : undefined}
                        disabled={saving}
                        onChange={(e) => setDrafts((d) => ({ ...d, [t]: { ...d[t], [l]: e.target.value } }))}
                        slotProps={{
                          htmlInput: {
                            min: 0,
                            max: 999,
                            step: 1,
                            inputMode: 'numeric',
                            'aria-label': m('count_input', {
                              kind: translate(`app.scanPage.${t}`),
                              level: translate(`app.scanPage.level.${l}`),
                            }),
                          },
                        }}
                      />
                    );
                  })}
                </Box>
              )}
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{m('close')}</Button>
        {!readOnly && (
          <Button
            variant="contained"
            onClick={() => void save()}
            disabled={saving || invalid}
            startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            {m('save_counts')}
          </Button>
        )}
      </DialogActions>
      {viewing !== null && (
        <ImageViewer images={shown.map((d) => ({ src: d.src ?? '', alt: nameOf(d) }))} start={viewing} onClose={() => setViewing(null)} />
      )}
      {conflicts.dialog}
    </Dialog>
  );
};
