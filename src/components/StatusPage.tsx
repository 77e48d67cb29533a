import type { ReactNode } from 'react';
import { Box, Stack, Typography } from '@mui/material';

/** Layout of the 404 and 403 pages: a large code, the product's message, then actions. */
export const StatusPage = ({ code, message, children }: { code: string; message: string; children: ReactNode }) => (
  <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
      <Typography component="p" sx={{ fontSize: { xs: 72, sm: 120 }, fontWeight: 800, lineHeight: 1, color: 'primary.main' }}>
        {code}
      </Typography>
      <Typography variant="h5" component="h1">
        {message}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {children}
      </Stack>
    </Stack>
  </Box>
);
