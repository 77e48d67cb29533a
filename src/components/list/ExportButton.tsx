import { useState } from 'react';
import { Button, ButtonGroup, CircularProgress, Menu, MenuItem } from '@mui/material';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import DownloadIcon from '@mui/icons-material/Download';
import { useDataProvider, useTranslate } from 'react-admin';
import { API_URL } from '../../config';
import type { AppDataProvider, Service } from '../../dataProvider';
import type { ExportFormat } from '../../domain/scans';
import { useNotifyError } from '../useNotifyError';

/** The file URL of the export reply (`{data: {url}}`, unwrapped by the data provider). */
const urlOf = (reply: unknown) =>
  typeof reply === 'object' && reply !== null && typeof (reply as { url?: unknown }).url === 'string'
    ? (reply as { url: string }).url
    : null;

/** An export's file name: `<prefix>-YYYYMMDD-HHmm.<ext>` (e.g. scans-20261124-1530.csv). */
export function exportFileName(prefix: string, extension: string, now = new Date()) {
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
  return `${prefix}-${stamp}.${extension}`;
}

/**
 * Starts the browser's download of a file of the files route, saved as `name` (by default an export's name with
 * `prefix`): the name travels as the route's `download` parameter, which makes the server send it as an attachment.
 */
export function downloadFile(url: string, name: string | ((extension: string) => string)) {
  const href = new URL(url, new URL(`${API_URL}/`, window.location.href));
  const extension = /\.([a-z0-9]{1,5})$/i.exec(href.pathname)?.[1] ?? 'csv';
  const fileName = typeof name === 'function' ? name(extension) : name;
  href.searchParams.set('download', fileName);
  const link = document.createElement('a');
  link.href = href.toString();
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

interface ExportButtonProps {
  /** The export route: `{service}/{path}` answering `{url}`. */
  service: Service;
  path: string;
  /** Saved file names start with it: 'scans', 'quotes'. */
  filePrefix: string;
  /** The list's i18n block: `<messages>.export`, `.exporting`, `.export_formats`, `.export_csv`, `.export_xlsx`. */
  messages: string;
  query: Record<string, string | number>;
  /** Tells the page to show its progress bar while the server builds the file. */
  onBusyChange?: (busy: boolean) => void;
}

/**
 * A list's Export: asks the server for the file with the list's filters, then downloads it from
 * the returned url. The button itself exports CSV, as the product's Export does; its arrow offers Excel (.xlsx) too.
 */
export const ExportButton = ({ service, path, filePrefix, messages, query, onBusyChange }: ExportButtonProps) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifyError = useNotifyError();
  const [busy, setBusy] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [group, setGroup] = useState<HTMLDivElement | null>(null);

  const exportList = async (format: ExportFormat) => {
    setMenuOpen(false);
    setBusy(true);
    onBusyChange?.(true);
    try {
      const url = urlOf(await dataProvider.send(service, path, { query: format === 'csv' ? query : { ...query, format } }));
      if (!url) throw new Error('app.error.server');
      downloadFile(url, (extension) => exportFileName(filePrefix, extension));
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
          onClick={() => void exportList('csv')}
          aria-busy={busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}
        >
          {translate(busy ? `${messages}.exporting` : `${messages}.export`)}
        </Button>
        <Button
          size="small"
          aria-label={translate(`${messages}.export_formats`)}
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(true)}
          sx={{ px: 0.5, minWidth: 0 }}
        >
          <ArrowDropDownIcon />
        </Button>
      </ButtonGroup>
      <Menu anchorEl={group} open={menuOpen} onClose={() => setMenuOpen(false)}>
        <MenuItem onClick={() => void exportList('csv')}>{translate(`${messages}.export_csv`)}</MenuItem>
        <MenuItem onClick={() => void exportList('xlsx')}>{translate(`${messages}.export_xlsx`)}</MenuItem>
      </Menu>
    </>
  );
};
