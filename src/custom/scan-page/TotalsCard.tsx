import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DENT_COLOUR, SCRATCH_COLOUR } from '../../domain/scan-view';
import { Section } from './Section';
import { useScanPage } from './context';

const Total = ({ label, value, colour }: { label: string; value: number; colour: string }) => (
  <Box sx={{ flex: 1, minWidth: 90, borderLeft: `4px solid ${colour}`, pl: 1.5 }}>
    <Typography variant="body2" color="text.secondary">
      {label}
    </Typography>
    <Typography variant="h5" component="p" aria-label={`${label}: ${value}`}>
      {value}
    </Typography>
  </Box>
);

/** The right column: Total Dents & Scratchs (the scan's totals, which the damage-count edit changes). */
export const TotalsCard = () => {
  const translate = useTranslate();
  const { scan } = useScanPage();
  return (
    <Section id="totals" title={translate('app.scanPage.totals')}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }} data-testid="scan-totals">
        <Total label={translate('app.scanPage.dents')} value={scan.dentCount} colour={DENT_COLOUR} />
        <Total label={translate('app.scanPage.scratchs')} value={scan.scratchCount} colour={SCRATCH_COLOUR} />
        <Total label={translate('app.scanPage.damages')} value={scan.damageCount} colour="#0C1839" />
      </Box>
    </Section>
  );
};
