import { Box, Checkbox, Link, List, ListItem } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { useTranslate } from 'react-admin';
import { Empty, Section } from './Section';
import { useScanPage } from './context';

/** The reports' PDF labels, shown in the user's language. */
const LABEL_KEYS: Record<string, string> = {
  'View Scan Report': 'app.scanPage.view_scan_report',
  'Customer Portal PDF': 'app.scanPage.customer_portal_pdf',
  'View Quote': 'app.scanPage.view_quote',
};

/**
 * Reports: the scan's PDFs, each opened in a new window ('View PDF' when unnamed); a check box beside each
 * attaches it to the mail (the Communication section).
 */
export const ReportsCard = () => {
  const translate = useTranslate();
  const { scan, selection, toggleSelected } = useScanPage();
  const items = scan.report_pdfs;
  return (
    <Section id="reports" title={translate('app.scanPage.reports')}>
      {items.length === 0 ? (
        <Empty>{translate('app.scanPage.no_reports')}</Empty>
      ) : (
        <List dense disablePadding>
          {items.map((pdf) => {
            const label = LABEL_KEYS[pdf.label] ? translate(LABEL_KEYS[pdf.label]) : pdf.label || translate('app.scanPage.view_pdf');
            return (
              <ListItem key={pdf.path} disableGutters>
                <Checkbox
                  size="small"
                  checked={selection.reports.has(pdf.path)}
                  onChange={() => toggleSelected('reports', pdf.path)}
                  slotProps={{ input: { 'aria-label': translate('app.scanPage.pdf_select', { label }) } }}
                />
                <Link
                  href={pdf.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={translate('app.scanPage.new_window', { label })}
                  sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
                >
                  {label}
                  <Box component={OpenInNewIcon} sx={{ fontSize: 16 }} aria-hidden />
                </Link>
              </ListItem>
            );
          })}
        </List>
      )}
    </Section>
  );
};
