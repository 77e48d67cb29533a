import { useState } from 'react';
import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useDataProvider, useTranslate } from 'react-admin';
import { useNotifyError } from '../../components/useNotifyError';
import type { AppDataProvider } from '../../dataProvider';
import { TYRE_REPAIR_TYPES, type TyreRepairType } from '../../domain/scan-view';
import { scanPath, useScanPage } from './context';

/** The scan's stored choices, when the server sends them with the scan (`tyre_repairs: [{position, repair_type}]`). */
const storedChoice = (scan: object, label: string): TyreRepairType | null => {
  const list = 'tyre_repairs' in scan && Array.isArray(scan.tyre_repairs) ? (scan.tyre_repairs as unknown[]) : [];
  for (const item of list) {
    if (typeof item === 'object' && item && 'position' in item && 'repair_type' in item && item.position === label) {
      const type = item.repair_type;
      if (TYRE_REPAIR_TYPES.includes(type as TyreRepairType)) return type as TyreRepairType;
    }
  }
  return null;
};

/**
 * Spec 2 §2, §4: the agent's Repair / Recheck Next Visit / Replace for one wheel; a new choice replaces the earlier one
 * for that position and is kept with the scan (`PUT scans/{id}/tyre-repairs {position, repair_type}`).
 */
export const TyreRepairChoice = ({ label }: { label: string }) => {
  const translate = useTranslate();
  const notifyError = useNotifyError();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { scan, id } = useScanPage();
  const [choice, setChoice] = useState<TyreRepairType | null>(() => storedChoice(scan, label));
  const [saving, setSaving] = useState(false);
  const choose = async (next: TyreRepairType | null) => {
    const before = choice;
    setChoice(next);
    setSaving(true);
    try {
      await dataProvider.send('scan', scanPath(id, '/tyre-repairs'), { method: 'PUT', body: { position: label, repair_type: next } });
    } catch (error) {
      setChoice(before);
      notifyError(error);
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
        <ToggleButton key={t} value={t} sx={{ textTransform: 'none' }}>
          {translate(`app.scanPage.tire.${t}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
};
