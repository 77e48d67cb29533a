import { Box, Button, Card, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatMoney } from '../../domain/money';
import {
  DENT_LEVELS,
  offeredRepairTypes,
  SCRATCH_REPAIR_TYPES,
  type DentLevel,
  type PricedLine,
  type PricingClient,
  type RepairType,
  type ScratchRepairType,
} from '../../domain/pricing';
import type { PanelChoice, PanelDamage, QuotePanel } from './quoteForm';

const T = 'app.quotes.generation';

const FeeRow = ({ label, cents, currency, strong }: { label: string; cents: number; currency: string; strong?: boolean }) => {
  const [locale] = useLocaleState();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: strong ? 600 : undefined, whiteSpace: 'nowrap' }}>
        {formatMoney(cents, currency, locale)}
      </Typography>
    </Box>
  );
};

const Fees = ({ line, currency }: { line: PricedLine; currency: string }) => {
  const translate = useTranslate();
  const t = (key: string) => translate(`${T}.fees.${key}`);
  return (
    <Box sx={{ display: 'grid', gap: 0.25, mt: 1 }}>
      {line.status === 'no-price' && (
        <Typography variant="caption" color="warning.main">
          {translate(`${T}.price_missing`)}
        </Typography>
      )}
      <FeeRow label={t('repair_fee')} cents={line.repair_fee} currency={currency} />
      {line.aluminium_fee > 0 && <FeeRow label={t('aluminium_fee')} cents={line.aluminium_fee} currency={currency} />}
      {line.metallic_fee > 0 && <FeeRow label={t('metallic_fee')} cents={line.metallic_fee} currency={currency} />}
      {line.pearl_fee > 0 && <FeeRow label={t('pearl_fee')} cents={line.pearl_fee} currency={currency} />}
      <FeeRow label={t('line_total')} cents={line.line_total} currency={currency} strong />
    </Box>
  );
};

interface PanelCardProps {
  panel: QuotePanel;
  choice: PanelChoice;
  damage: PanelDamage;
  client: PricingClient & { currency: string };
  lines: PricedLine[];
  onRepairType: (to: RepairType) => void;
  onCategory: (to: DentLevel) => void;
  onScratchRepair: (to: ScratchRepairType) => void;
  /** Opens the scan page's damage modal for this car panel. */
  onEditDamage?: () => void;
  /** The read-only quote view: the choices shown, not changed (docs/ARCHITECTURE.md, "Access model"). */
  readOnly?: boolean;
}

/**
 * One panel of the quote: its dent and scratch counts, the repair-type menu, the pdr category menu
 * and the line's fees; an undamaged panel says 'No Damage Detected'.
 */
export const PanelCard = ({
  panel,
  choice,
  damage,
  client,
  lines,
  onRepairType,
  onCategory,
  onScratchRepair,
  onEditDamage,
  readOnly = false,
}: PanelCardProps) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`${T}.${key}`, options);
  const dentLine = lines.find((l) => l.kind === 'dent');
  const scratchLine = lines.find((l) => l.kind === 'scratch');
  const id = `panel-${panel.id}`;
  return (
    <Card variant="outlined" component="section" aria-labelledby={`${id}-title`}>
      <CardContent sx={{ display: 'grid', gap: 1.5, '&:last-child': { pb: 2 } }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 1 }}>
          <Typography id={`${id}-title`} component="h4" variant="subtitle2" sx={{ fontWeight: 600 }}>
            {panel.label}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {t('dents', { smart_count: damage.dents })} · {t('scratches', { smart_count: damage.scratches })}
          </Typography>
        </Box>
        {onEditDamage && panel.carPanel && (
          <Box>
            <Button size="small" variant="outlined" onClick={onEditDamage} aria-label={t('edit_damage_for', { panel: panel.label })}>
              {t('edit_damage')}
            </Button>
          </Box>
        )}
        {choice.dent.repair_type === null && choice.scratch === null && (
          <Typography variant="body2" color="text.secondary">
            {t('no_damage')}
          </Typography>
        )}
        {choice.dent.repair_type !== null && (
          <Box>
            <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
              <TextField
                select
                size="small"
                label={t('repair_type')}
                value={choice.dent.repair_type}
                disabled={readOnly}
                onChange={(event) => onRepairType(event.target.value as RepairType)}
              >
                {offeredRepairTypes(client).map((type) => (
                  <MenuItem key={type} value={type}>
                    {t(`repair_types.${type}`)}
                  </MenuItem>
                ))}
              </TextField>
              {choice.dent.repair_type === 'pdr' && (
                <TextField
                  select
                  size="small"
                  label={t('category')}
                  value={choice.dent.category ?? ''}
                  disabled={readOnly}
                  onChange={(event) => onCategory(event.target.value as DentLevel)}
                >
                  {DENT_LEVELS.map((level) => (
                    <MenuItem key={level} value={level}>
                      {t(`levels.${level}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            </Box>
            {dentLine && <Fees line={dentLine} currency={client.currency} />}
          </Box>
        )}
        {choice.scratch !== null && (
          <Box>
            <TextField
              select
              fullWidth
              size="small"
              label={t('scratch_repair')}
              value={choice.scratch}
              disabled={readOnly}
              onChange={(event) => onScratchRepair(event.target.value as ScratchRepairType)}
            >
              {SCRATCH_REPAIR_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {t(`scratch_types.${type}`)}
                </MenuItem>
              ))}
            </TextField>
            {scratchLine && <Fees line={scratchLine} currency={client.currency} />}
          </Box>
        )}
      </CardContent>
    </Card>
  );
};
