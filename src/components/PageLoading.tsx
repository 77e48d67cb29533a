import { Box } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import { useTranslate } from 'react-admin';

const spin = keyframes`to { transform: rotate(360deg); }`;

/** Shown while a lazily loaded screen's code arrives; a CSS ring, so the first download stays small. */
export const PageLoading = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240, width: '100%' }}>
      <Box
        role="progressbar"
        aria-label={translate('app.loading')}
        sx={{
          width: 32,
          height: 32,
          borderRadius: '50%',
          border: 3,
          borderColor: 'primary.main',
          borderTopColor: 'transparent',
          animation: `${spin} 0.8s linear infinite`,
        }}
      />
    </Box>
  );
};
