import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { TermsDialog } from './TermsDialog';

export const DashboardPage = () => {
  const translate = useTranslate();
  return (
    <Box>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('app.dashboard.todays_scans')}
      </Typography>
      <TermsDialog />
    </Box>
  );
};
