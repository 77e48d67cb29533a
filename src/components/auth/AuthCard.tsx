import type { ReactNode } from 'react';
import { Box, Paper } from '@mui/material';
import { useTranslate } from 'react-admin';

/** The centred card of the public sign-in and password pages (built from components the first download already has). */
export const AuthCard = ({ title, children }: { title: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2, bgcolor: 'primary.main' }}
    >
      <Paper sx={{ width: '100%', maxWidth: 400, p: { xs: 2, sm: 4 } }}>
        <Box component="p" sx={{ m: 0, typography: 'h5', fontWeight: 700, textAlign: 'center', color: 'primary.main' }}>
          {translate('app.product')}
        </Box>
        <Box component="h1" sx={{ mt: 1, mb: 2, typography: 'h6', textAlign: 'center' }}>
          {title}
        </Box>
        {children}
      </Paper>
    </Box>
  );
};
