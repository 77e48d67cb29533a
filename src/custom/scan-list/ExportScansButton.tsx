import { useState } from 'react';
import { Button, ButtonGroup, CircularProgress, Menu, MenuItem } from '@mui/material';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import DownloadIcon from '@mui/icons-material/Download';
import { useDataProvider, useTranslate } from 'react-admin';
import { API_URL } from '../../config';
import type { AppDataProvider } from '../../dataProvider';
import { useNotifyError } from '../../components/useNotifyError';
import type { ExportFormat } from '../../domain/scans';
import type { ScanQuery } from './filters';

/** The file URL of the export reply (`{data: {url}}`, unwrapped by the data provider). */
const urlOf = (reply: unknown) =>
  typeof reply === 'object' && reply !== null && typeof (reply as { url?: unknown }).url === 'string'
    ? (reply as { url: string }).url
    : null;

/**
 * Starts the browser's download of the export file, saved as `scans-YYYYMMDD-HHmm.<ext>`: the name travels as the
 * files route's `download` parameter, which makes the server send it as an attachment under that name.
 */
export function downloadFile(url: string, now = new Date()) {
  const href = new URL(url, new URL(`${API_URL}/`, window.location.href));
  const extension = /\.([a-z0-9]{1,5})$/i.exec(href.pathname)?.[1] ?? 'csv';
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
  const name = `scans-${stamp}.${extension}`;
  href.searchParams.set('download', name);
  const link = document.createElement('a');
  link.href = href.toString();
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

interface ExportScansButtonProps {
  query: ScanQuery;
  /** Tells the page to show its progress bar while the server builds the file. */
  onBusyChange?: (busy: boolean) => void;
}

/**
 * Spec 2 §2 Export: asks the server for the file with the list's filters, then downloads it from the returned url.
 * The button itself exports CSV, as the spec's Export does; its arrow offers Excel (.xlsx) too.
 */
export const ExportScansButton = ({ query, onBusyChange }: ExportScansButtonProps) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifyError = useNotifyError();
  const [busy, setBusy] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [group, setGroup] = useState<HTMLDivElement | null>(null);

  const exportScans = async (format: ExportFormat) => {
    setMenuOpen(false);
    setBusy(true);
    onBusyChange?.(true);
    try {
      const url = urlOf(
        await dataProvider.send('scan', 'scans/export-scan-report', { query: format === 'csv' ? query : { ...query, format } }),
      );
      if (!url) throw new Error('app.error.server');
      downloadFile(url);
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
      onBusyChange?.(false);
    }
  };

  return (
    <>
      <ButtonGroup variant="outlined" ref={setGroup} disabled={busy}>
        <Button
          onClick={() => void exportScans('csv')}
          aria-busy={busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}
        >
          {translate(busy ? 'app.scans.exporting' : 'app.scans.export')}
        </Button>
        <Button
          size="small"
          aria-label={translate('app.scans.export_formats')}
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(true)}
          sx={{ px: 0.5, minWidth: 0 }}
        >
          <ArrowDropDownIcon />
        </Button>
      </ButtonGroup>
      <Menu anchorEl={group} open={menuOpen} onClose={() => setMenuOpen(false)}>
        <MenuItem onClick={() => void exportScans('csv')}>{translate('app.scans.export_csv')}</MenuItem>
        <MenuItem onClick={() => void exportScans('xlsx')}>{translate('app.scans.export_xlsx')}</MenuItem>
      </Menu>
    </>
  );
};
