import { useState } from 'react';
import { Box, ButtonBase, Card, CardContent, Skeleton, Tooltip, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DAMAGE_LEVELS } from '../../domain/scan-codes';
import {
  DENT_COLOUR,
  LEVELS_DOWN,
  NEW_DAMAGE_COLOUR,
  panelLabelOf,
  SCRATCH_COLOUR,
  SEVERITY_COLOURS,
  sketchGroups,
  worstLevel,
  type LevelCounts,
  type PanelDamage,
} from '../../domain/scan-view';
import { CompareDialog } from './CompareDialog';
import { DamageModal } from './DamageModal';
import { gainsByPanel, useComparison } from './NewSince';
import { Empty } from './Section';
import { useScanPage } from './context';
import { useArchData } from './useArchData';
import { imageSources } from '../../domain/images';

/** A view's card is the page's width on a phone and a grid cell (at most about 400 px) from the small breakpoint up. */
// On a phone a card spans the page less its margins (about 50 px); asking for the full viewport would take the next
// larger copy on a 412 px screen at 1.75×.
const SKETCH_SIZES = '(max-width: 599px) calc(100vw - 48px), 400px';

/** The per-severity counts behind a chip (the chip's tooltip), in the level colours. */
const LevelBreakdown = ({ counts }: { counts: LevelCounts }) => {
  const translate = useTranslate();
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {LEVELS_DOWN.filter((l) => counts[l] > 0).map((l) => (
        <Box component="li" key={l} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
          <Box sx={{ width: 10, height: 10, bgcolor: SEVERITY_COLOURS[l], border: '1px solid #fff' }} aria-hidden />
          {translate(`app.scanPage.level.${l}`)}: {counts[l]}
        </Box>
      ))}
    </Box>
  );
};

const CHIP_SX = {
  minWidth: 28,
  height: 24,
  px: 1,
  borderRadius: 12,
  color: '#fff',
  fontSize: 13,
  fontWeight: 600,
  '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
} as const;

/** What the chips' colours mean; always shown, so the sketch keeps its height when the comparison arrives. */
const Legend = () => {
  const translate = useTranslate();
  const items = [
    [DENT_COLOUR, 'app.scanPage.legend.dents'],
    [SCRATCH_COLOUR, 'app.scanPage.legend.scratchs'],
    [NEW_DAMAGE_COLOUR, 'app.scanPage.legend.new'],
  ];
  return (
    <Box component="figcaption" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 1, fontSize: 13, color: 'text.secondary' }}>
      {items.map(([colour, key]) => (
        <Box key={key} component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
          <Box component="span" sx={{ width: 12, height: 12, borderRadius: 6, bgcolor: colour }} aria-hidden />
          {translate(key)}
        </Box>
      ))}
    </Box>
  );
};

const CountChip = ({
  count,
  colour,
  label,
  counts,
  onClick,
}: {
  count: number;
  colour: string;
  label: string;
  counts: LevelCounts;
  onClick: () => void;
}) => (
  <Tooltip title={<LevelBreakdown counts={counts} />} arrow>
    <ButtonBase onClick={onClick} aria-label={label} sx={{ ...CHIP_SX, bgcolor: colour }}>
      {count}
    </ButtonBase>
  </Tooltip>
);

/** One panel's row of the sketch: its worst severity, its name, its dent and scratch chips. */
const PanelChips = ({
  panel,
  label,
  onOpen,
  gained,
  onCompare,
}: {
  panel: PanelDamage;
  label: string;
  onOpen: () => void;
  /** Damage new since the vehicle's previous scan on this panel (0: none). */
  gained: number;
  onCompare: () => void;
}) => {
  const translate = useTranslate();
  const worst = worstLevel(Object.fromEntries(DAMAGE_LEVELS.map((l) => [l, panel.dents[l] + panel.scratchs[l]])) as LevelCounts);
  return (
    <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, minWidth: 0 }}>
      <Box
        sx={{
          width: 12,
          height: 12,
          borderRadius: '50%',
          flex: 'none',
          bgcolor: worst ? SEVERITY_COLOURS[worst] : 'transparent',
          border: '1px solid #999',
        }}
        title={worst ? translate(`app.scanPage.level.${worst}`) : undefined}
        aria-hidden
      />
      <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
        {label}
      </Typography>
      {panel.dentTotal > 0 && (
        <CountChip
          count={panel.dentTotal}
          colour={DENT_COLOUR}
          counts={panel.dents}
          label={translate('app.scanPage.chip_dents', { panel: label, smart_count: panel.dentTotal })}
          onClick={onOpen}
        />
      )}
      {panel.scratchTotal > 0 && (
        <CountChip
          count={panel.scratchTotal}
          colour={SCRATCH_COLOUR}
          counts={panel.scratchs}
          label={translate('app.scanPage.chip_scratchs', { panel: label, smart_count: panel.scratchTotal })}
          onClick={onOpen}
        />
      )}
      {gained > 0 && (
        <Tooltip title={translate('app.scanPage.compare.open')} arrow>
          <ButtonBase
            onClick={onCompare}
            aria-haspopup="dialog"
            aria-label={translate('app.scanPage.chip_new', { panel: label, smart_count: gained })}
            sx={{ ...CHIP_SX, bgcolor: NEW_DAMAGE_COLOUR }}
          >
            +{gained}
          </ButtonBase>
        </Tooltip>
      )}
    </Box>
  );
};

/**
 * Arch / chasis: the car sketch, one card per panel-group drawing with the damaged panels on it and their
 * dent (#B54054) and scratch (#334A8F) count chips; a chip opens the damage modal. A panel with damage new since the
 * vehicle's previous scan gets a chip in its own colour (the legend names the three), which opens the two scans side by side.
 */
export const DamageSketch = () => {
  const translate = useTranslate();
  const { scan } = useScanPage();
  const arch = useArchData(scan.id);
  const comparison = useComparison(scan.id).data;
  const gains = gainsByPanel(comparison);
  const [open, setOpen] = useState<{ carPanel: string; label: string } | null>(null);
  const [comparing, setComparing] = useState<string | null>(null);
  if (arch.isPending) return <Skeleton variant="rectangular" height={240} />;
  // Arch data errors are logged only.
  if (arch.error) console.warn('archData/search failed', arch.error);
  const sketch = arch.data ? sketchGroups(arch.data) : [];
  const damaged = sketch.some((g) => g.panels.length > 0);
  const labelOf = (carPanel: string) =>
    sketch.flatMap((g) => g.panels).find((p) => p.carPanel === carPanel)?.label ?? panelLabelOf(carPanel);
  const viewsOf = (carPanel: string) =>
    (arch.data?.panel_groups ?? [])
      .filter((g) => g.panels.some((p) => p.carPanel === carPanel))
      .map((g) => ({ id: g.id, name: g.name, image: g.image }));
  return (
    <Box component="figure" aria-label={translate('app.scanPage.sketch')} sx={{ m: 0, minWidth: 0 }}>
      {!damaged && <Empty>{translate('app.scanPage.damage_not_detected')}</Empty>}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 220px), 1fr))' }}>
        {sketch.map(({ group, panels: onView }, index) => (
          <Card key={group?.id ?? 'other'} variant="outlined" sx={{ minWidth: 0 }}>
            {group?.image && (
              <Box
                component="img"
                {...imageSources(group.image, SKETCH_SIZES)}
                alt={group.name}
                decoding="async"
                // The first view is the page's largest picture on a phone: fetched first; the others as they near the screen.
                {...(index === 0 ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const })}
                sx={{ width: '100%', aspectRatio: '2 / 1', objectFit: 'contain', display: 'block' }}
              />
            )}
            <CardContent sx={{ pt: 1, '&:last-child': { pb: 1.5 } }}>
              <Typography variant="subtitle2" component="h3">
                {group?.name ?? translate('app.scanPage.sketch_other')}
              </Typography>
              <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
                {onView.map((p) => (
                  <PanelChips
                    key={p.carPanel}
                    panel={p}
                    label={p.label}
                    onOpen={() => setOpen({ carPanel: p.carPanel, label: p.label })}
                    gained={gains.get(p.carPanel) ?? 0}
                    onCompare={() => setComparing(p.carPanel)}
                  />
                ))}
              </Box>
            </CardContent>
          </Card>
        ))}
      </Box>
      <Legend />
      {comparing && comparison && (
        <CompareDialog
          comparison={comparison}
          panels={[...gains.keys()].map((carPanel) => ({ carPanel, label: labelOf(carPanel) }))}
          initial={comparing}
          onClose={() => setComparing(null)}
        />
      )}
      {open && <DamageModal carPanel={open.carPanel} label={open.label} views={viewsOf(open.carPanel)} onClose={() => setOpen(null)} />}
    </Box>
  );
};
