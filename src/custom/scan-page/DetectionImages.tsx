import { useState } from 'react';
import { Box, Button, ButtonBase, Checkbox } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ImageViewer } from '../../components/ImageViewer';
import { damageImageText, panelLabels } from '../../domain/damage-images';
import { imageSources } from '../../domain/images';
import { Empty, Section } from './Section';
import { useScanPage } from './context';
import { useArchData } from './useArchData';

/** A tile is a third of a phone's width and at most about 160 px from the small breakpoint up. */
const DETECTION_SIZES = '(max-width: 599px) 34vw, 160px';

/**
 * Detection Images: the scan's damage close-ups, named by the sketch's panel labels; a click or Enter opens the
 * viewer over the grid, and in select mode a click picks the image for the mail instead.
 */
export const DetectionImages = () => {
  const translate = useTranslate();
  const { scan, selection, toggleSelected } = useScanPage();
  const [selecting, setSelecting] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const images = scan.damages.filter((d) => d.src);
  // The sketch's query (same key): asked only when there is a close-up to name.
  const arch = useArchData(scan.id, images.length > 0);
  const labels = panelLabels(arch.data);
  const nameOf = (d: (typeof images)[number]) => damageImageText(d, translate, labels.get(d.carPanel));
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
          sx={{
            display: 'grid',
            gap: 1,
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(140px, 100%), 1fr))',
            listStyle: 'none',
            m: 0,
            p: 0,
          }}
        >
          {images.map((d, i) => {
            const name = nameOf(d);
            const img = (
              <Box
                component="img"
                {...imageSources(d.src ?? '', DETECTION_SIZES)}
                alt={name}
                loading="lazy"
                decoding="async"
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
                  <ButtonBase
                    sx={{ display: 'block', width: '100%', cursor: 'zoom-in' }}
                    onClick={() => setViewing(i)}
                    aria-label={translate('app.imageViewer.open', { name })}
                    aria-haspopup="dialog"
                  >
                    {img}
                  </ButtonBase>
                )}
              </Box>
            );
          })}
        </Box>
      )}
      {viewing !== null && (
        <ImageViewer images={images.map((d) => ({ src: d.src ?? '', alt: nameOf(d) }))} start={viewing} onClose={() => setViewing(null)} />
      )}
    </Section>
  );
};
