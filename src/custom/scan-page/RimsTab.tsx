import { Box, Card, CardContent, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useScanPage } from './context';
import { imageSources } from '../../domain/images';

/** Rims tab: a placeholder image card labelled Rear Left. */
export const RimsTab = () => {
  const translate = useTranslate();
  const { scan } = useScanPage();
  const src = scan.meta?.thumbnailImagePathUrl;
  return (
    <Card variant="outlined" sx={{ maxWidth: 320 }}>
      {src ? (
        <Box
          component="img"
          {...imageSources(src, '320px')}
          alt={translate('app.scanPage.rims.image')}
          loading="lazy"
          decoding="async"
          sx={{ width: '100%', aspectRatio: '4 / 3', objectFit: 'contain', display: 'block', bgcolor: 'grey.100' }}
        />
      ) : (
        <Box sx={{ height: 160, bgcolor: 'grey.100' }} aria-hidden />
      )}
      <CardContent>
        <Typography variant="subtitle2" component="p">
          {translate('app.scanPage.rims.rear_left')}
        </Typography>
      </CardContent>
    </Card>
  );
};
