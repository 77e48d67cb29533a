import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, Typography } from '@mui/material';

/** A titled card of the scan page (one of its sections); `action` sits at the title's end. */
export const Section = ({ title, action, children, id }: { title: string; action?: ReactNode; children: ReactNode; id: string }) => (
  <Card variant="outlined" component="section" aria-labelledby={`${id}-title`} sx={{ minWidth: 0 }}>
    <CardHeader
      title={title}
      action={action}
      slotProps={{ title: { variant: 'subtitle1', component: 'h2', id: `${id}-title`, sx: { fontWeight: 600 } } }}
      sx={{ pb: 0, '& .MuiCardHeader-action': { alignSelf: 'center', m: 0 } }}
    />
    <CardContent sx={{ minWidth: 0 }}>{children}</CardContent>
  </Card>
);

/** An empty state's text ('No Data Available!.' and the like). */
export const Empty = ({ children }: { children: ReactNode }) => (
  <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
    {children}
  </Typography>
);
