import { useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useDataProvider, useTranslate } from 'react-admin';
import { API_URL } from '../../config';
import type { AppDataProvider } from '../../dataProvider';
import { useNotifyError } from '../../components/useNotifyError';
import type { ScanQuery } from './filters';

/** The file URL of the export reply (`{data: {url}}`, unwrapped by the data provider). */
const urlOf = (reply: unknown) =>
  typeof reply === 'object' && reply !== null && typeof (reply as { url?: unknown }).url === 'string' ? (reply as { url: string }).url : null;

/** Starts the browser's download of the export file; the server names it, we name the saved copy. */
export function downloadFile(url: string, now = new Date()) {
  const href = new URL(url, new URL(`${API_URL}/`, window.location.href)).toString();
  const extension = /\.([a-z0-9]{1,5})(?:$|\?)/i.exec(new URL(href).pathname)?.[1] ?? 'csv';
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
  const link = document.createElement('a');
  link.href = href;
  link.download = `scans-${stamp}.${extension}`;
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

/** Spec 2 §2 Export: asks the server for the file with the list's filters, then downloads it from the returned url. */
export const ExportScansButton = ({ query, onBusyChange }: ExportScansButtonProps) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifyError = useNotifyError();
  const [busy, setBusy] = useState(false);

  const exportScans = async () => {
    setBusy(true);
    onBusyChange?.(true);
    try {
      const url = urlOf(await dataProvider.send('scan', 'scans/export-scan-report', { query }));
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
    <Button
      variant="outlined"
      onClick={exportScans}
      disabled={busy}
      aria-busy={busy}
      startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}
    >
      {translate(busy ? 'app.scans.exporting' : 'app.scans.export')}
    </Button>
  );
};
