import { useState } from 'react';
import { ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { useNotifyError } from '../../components/useNotifyError';
import type { AppDataProvider } from '../../dataProvider';
import { TYRE_REPAIR_TYPES, type TyreRepairType } from '../../domain/scan-codes';
import { evaluationKey } from '../quote-generation/useQuoteSources';
import { useScanPage } from './context';

/** i18n keys of the choices (Repair, Recheck Next Visit, Replace). */
const LABEL: Record<TyreRepairType, string> = {
  repair: 'app.scanPage.tire.repair',
  recheck: 'app.scanPage.tire.recheck',
  replace: 'app.scanPage.tire.replace',
};

/**
 * The agent's Repair / Recheck Next Visit / Replace for one wheel; a new choice replaces the earlier one
 * for that position and is kept with the scan (`PUT scans/{id}/tyre-repairs {row, direction, repair_type}`, null clears).
 * Without `scan_edit` the choice is only shown (docs/ARCHITECTURE.md, "Access model").
 */
export const TyreRepairChoice = ({ row, direction, label }: { row: number; direction: 'L' | 'R'; label: string }) => {
  const translate = useTranslate();
  const notifyError = useNotifyError();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { scan, id, setScan, canEditScan, refreshVersion, caughtConflict } = useScanPage();
  const queryClient = useQueryClient();
  const choice = scan.tyre_repairs.find((r) => r.row === row && r.direction === direction)?.repair_type ?? null;
  const [saving, setSaving] = useState(false);
  if (!canEditScan)
    return choice ? (
      <Typography variant="body2" sx={{ mt: 1.5 }}>
        {translate('app.scanPage.tire.choice', { choice: translate(LABEL[choice]) })}
      </Typography>
    ) : null;
  const choose = async (next: TyreRepairType | null, version = scan.version) => {
    setSaving(true);
    try {
      const list = await dataProvider.tyreRepairs(id, { row, direction, repair_type: next, version });
      setScan((s) => ({ ...s, tyre_repairs: list }));
      // The reply is the choices only: the next edit is made from the version this one made.
      await refreshVersion();
      // The quote's Tyres section follows the choices: the agent's quote preview reads them with the evaluation.
      void queryClient.invalidateQueries({ queryKey: evaluationKey(String(id)) });
    } catch (error) {
      if (!caughtConflict(error, (current) => choose(next, current))) notifyError(error);
    } finally {
      setSaving(false);
    }
  };
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={choice}
      disabled={saving}
      onChange={(_, v: TyreRepairType | null) => void choose(v)}
      aria-label={translate('app.scanPage.tire.repair_types', { label })}
      sx={{ mt: 1.5, flexWrap: 'wrap' }}
    >
      {TYRE_REPAIR_TYPES.map((t) => (
        <ToggleButton key={t.id} value={t.id} sx={{ textTransform: 'none' }}>
          {translate(LABEL[t.id])}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
};
