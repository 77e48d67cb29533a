import { useState } from 'react';
import { Box, Button, ButtonGroup, CircularProgress, LinearProgress, Menu, MenuItem } from '@mui/material';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import DownloadIcon from '@mui/icons-material/Download';
import { useDataProvider, useListContext, useLocaleState, useTranslate } from 'react-admin';
import { downloadFile, exportFileName } from '../../components/downloadFile';
import { useNotifyError } from '../../components/useNotifyError';
import type { AppDataProvider, ExportQuery } from '../../dataProvider';
import type { ExportFormat } from '../../domain/scan-codes';
import { filterQuery } from './filterValues';

interface ListExportButtonProps {
  /** The list's export call (a named data-provider method answering the file's url). */
  exportList: (dataProvider: AppDataProvider, query: ExportQuery) => Promise<string>;
  /** The advance filter's keys: the query sends them with the search text. */
  keys: readonly string[];
  /** The server sorts the list (the vehicles): the query sends the list's order too, so the file reads as the list. */
  sorted?: boolean;
  /** Saved file names start with it: 'scans', 'quotes'. */
  filePrefix: string;
  /** The list's i18n block: `<messages>.export`, `.exporting`, `.export_formats`, `.export_csv`, `.export_xlsx`. */
  messages: string;
}

/**
 * A filtered list's Export: asks the server for the file with the list's search and filters, then downloads it from
 * the returned url, with a progress bar while the server builds it (in the list's order when the server sorts it). The button itself exports CSV, as the product's
 * Export does; its arrow offers Excel (.xlsx) too.
 */
export const ListExportButton = ({ exportList, keys, sorted = false, filePrefix, messages }: ListExportButtonProps) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const list = useListContext();
  const filterValues = list.filterValues as Record<string, unknown>;
  const notifyError = useNotifyError();
  const [locale] = useLocaleState();
  const [busy, setBusy] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [group, setGroup] = useState<HTMLDivElement | null>(null);

  const run = async (format: ExportFormat) => {
    setMenuOpen(false);
    setBusy(true);
    try {
      // Written in the screen's language, as the list shows it.
      const query: ExportQuery = { ...filterQuery(keys, filterValues.q, filterValues), lang: locale };
      if (sorted && list.sort.field) Object.assign(query, { sort: list.sort.field, order: list.sort.order.toLowerCase() });
      const url = await exportList(dataProvider, format === 'csv' ? query : { ...query, format });
      downloadFile(url, (extension) => exportFileName(filePrefix, extension));
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ position: 'relative' }}>
      <ButtonGroup variant="outlined" ref={setGroup} disabled={busy}>
        <Button
          onClick={() => void run('csv')}
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
      {busy && (
        <LinearProgress aria-label={translate(`${messages}.exporting`)} sx={{ position: 'absolute', left: 0, right: 0, bottom: -6 }} />
      )}
      <Menu anchorEl={group} open={menuOpen} onClose={() => setMenuOpen(false)}>
        <MenuItem onClick={() => void run('csv')}>{translate(`${messages}.export_csv`)}</MenuItem>
        <MenuItem onClick={() => void run('xlsx')}>{translate(`${messages}.export_xlsx`)}</MenuItem>
      </Menu>
    </Box>
  );
};
