import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { TermsLink } from '../../components/TermsLink';

/** Current year, product name, 'Terms and Legal' (opens the Terms and Conditions). */
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
      <TermsLink label="app.footer.terms" />
    </Box>
  );
};
