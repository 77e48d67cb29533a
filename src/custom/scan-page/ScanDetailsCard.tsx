import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatDateTime } from '../../domain/format';
import { isScanStatus, isScanType } from '../../domain/scan-codes';
import { Section } from './Section';
import { useScanPage } from './context';

export const DetailRow = ({ label, children }: { label: string; children: ReactNode }) => {
  const translate = useTranslate();
  const empty = children === '' || children === null || children === undefined;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '130px 1fr' }, columnGap: 1, py: 0.75 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere' }}>
        {empty ? translate('app.scans.page.not_set') : children}
      </Typography>
    </Box>
  );
};

/** The right column: Scan Details (read only). */
export const ScanDetailsCard = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { scan } = useScanPage();
  const label = (k: string) => translate(`app.scans.page.${k}`);
  return (
    <Section id="scan-details" title={label('scan_details')}>
      <DetailRow label={label('scan_id')}>{scan.scan_id}</DetailRow>
      <DetailRow label={label('type')}>{isScanType(scan.type) ? translate(`app.scans.type.${scan.type}`) : scan.type}</DetailRow>
      <DetailRow label={label('status')}>
        {isScanStatus(scan.status) ? translate(`app.scans.status.${scan.status}`) : scan.status}
      </DetailRow>
      <DetailRow label={label('date_time')}>{formatDateTime(scan.timestamp, locale)}</DetailRow>
      <DetailRow label={label('agent')}>{scan.agent_name}</DetailRow>
      <DetailRow label={label('location')}>{scan.location_name}</DetailRow>
    </Section>
  );
};
