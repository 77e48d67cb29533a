import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** Current year, product name, 'Terms and Legal'. */
export const Footer = () => {
  const translate = useTranslate();
  return (
    <Box
      component="footer"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'space-between',
        gap: 1,
        px: 2,
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <Typography variant="body2" color="text.secondary">
        {translate('app.footer.copyright', { year: new Date().getFullYear(), product: translate('app.product') })}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('app.footer.terms')}
      </Typography>
    </Box>
  );
};
