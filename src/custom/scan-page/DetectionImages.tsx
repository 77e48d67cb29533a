import { useState } from 'react';
import { Box, Button, ButtonBase, Checkbox } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Empty, Section } from './Section';
import { useScanPage } from './context';

/** Detection Images: the scan's damage close-ups; select mode picks them for the mail. */
export const DetectionImages = () => {
  const translate = useTranslate();
  const { scan, selection, toggleSelected } = useScanPage();
  const [selecting, setSelecting] = useState(false);
  const images = scan.damages.filter((d) => d.src);
  const nameOf = (d: (typeof images)[number]) =>
    translate('app.scanPage.detections.image', {
      panel: d.carPanel,
      level: translate(`app.scanPage.level.${d.level}`, { _: d.level }),
      kind: translate(d.type === 'dents' ? 'app.scanPage.modal.dent' : 'app.scanPage.modal.scratch'),
    });
  return (
    <Section
      id="detection-images"
      title={translate('app.scanPage.detections.title')}
      action={
        images.length > 0 && (
          <Button size="small" onClick={() => setSelecting((s) => !s)} aria-pressed={selecting}>
            {translate(selecting ? 'app.scanPage.select_done' : 'app.scanPage.select_mode')}
          </Button>
        )
      }
    >
      {images.length === 0 ? (
        <Empty>{translate('app.scanPage.no_reports')}</Empty>
      ) : (
        <Box
          component="ul"
          sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(100px, 1fr))', listStyle: 'none', m: 0, p: 0 }}
        >
          {images.map((d) => {
            const name = nameOf(d);
            const img = (
              <Box
                component="img"
                src={d.src ?? ''}
                alt={name}
                sx={{ width: '100%', aspectRatio: '1', objectFit: 'cover', display: 'block' }}
              />
            );
            return (
              <Box
                component="li"
                key={d.id}
                sx={{ position: 'relative', border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}
              >
                {selecting ? (
                  <>
                    <ButtonBase
                      sx={{ display: 'block', width: '100%' }}
                      onClick={() => toggleSelected('damages', d.id)}
                      tabIndex={-1}
                      aria-hidden
                    >
                      {img}
                    </ButtonBase>
                    <Checkbox
                      checked={selection.damages.has(d.id)}
                      onChange={() => toggleSelected('damages', d.id)}
                      sx={{ position: 'absolute', top: 0, right: 0, bgcolor: 'rgba(255,255,255,0.8)', '&:hover': { bgcolor: '#fff' } }}
                      slotProps={{ input: { 'aria-label': translate('app.scanPage.modal.select_image', { name }) } }}
                    />
                  </>
                ) : (
                  img
                )}
              </Box>
            );
          })}
        </Box>
      )}
    </Section>
  );
};
