import { useEffect, useRef, useState } from 'react';
import { Box, Button, ButtonBase, CircularProgress, IconButton } from '@mui/material';
import CameraAltIcon from '@mui/icons-material/CameraAlt';
import DeleteIcon from '@mui/icons-material/Delete';
import { useTranslate } from 'react-admin';
import { useNotifyError } from '../../components/useNotifyError';
import { CAPTURE_QUALITY } from '../../domain/scan-view';
import { Empty, Section } from './Section';
import { canvasJpeg, useAnnotates } from './useAnnotates';
import { useScanPage } from './context';
import { imageSources, sizedImageUrl } from '../../domain/images';

interface Capture {
  key: number;
  blob: Blob;
  url: string;
  saved: boolean;
  saving: boolean;
}

/**
 * Scan Video: the videos' thumbnails and a player. Once the video plays, a frame can be captured (JPEG,
 * quality 0.25); each capture is saved once to the saved images (then marked saved) or removed before saving. Capturing
 * is for saving: only with `scan_edit` (docs/ARCHITECTURE.md, "Access model").
 */
export const ScanVideo = () => {
  const translate = useTranslate();
  const notifyError = useNotifyError();
  const { scan, canEditScan } = useScanPage();
  const { save } = useAnnotates();
  const videos = scan.videos;
  const [current, setCurrent] = useState(0);
  const [played, setPlayed] = useState(false);
  const [captures, setCaptures] = useState<Capture[]>([]);
  const player = useRef<HTMLVideoElement>(null);
  const nextKey = useRef(1);
  const v = (k: string, args?: Record<string, unknown>) => translate(`app.scanPage.video.${k}`, args);
  const urls = useRef<string[]>([]);
  useEffect(() => () => urls.current.forEach((u) => URL.revokeObjectURL(u)), []);

  const capture = async () => {
    const video = player.current;
    if (!video || !video.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
    try {
      const blob = await canvasJpeg(canvas, CAPTURE_QUALITY);
      const url = URL.createObjectURL(blob);
      urls.current.push(url);
      setCaptures((c) => [...c, { key: nextKey.current++, blob, url, saved: false, saving: false }]);
    } catch (error) {
      notifyError(error);
    }
  };
  const saveCapture = async (key: number) => {
    const item = captures.find((c) => c.key === key);
    if (!item || item.saved) return;
    setCaptures((c) => c.map((x) => (x.key === key ? { ...x, saving: true } : x)));
    try {
      await save(item.blob, `frame-${key}.jpg`);
      setCaptures((c) => c.map((x) => (x.key === key ? { ...x, saving: false, saved: true } : x)));
    } catch (error) {
      setCaptures((c) => c.map((x) => (x.key === key ? { ...x, saving: false } : x)));
      notifyError(error);
    }
  };

  return (
    <Section id="scan-video" title={v('title')}>
      {videos.length === 0 ? (
        <Empty>{v('not_available')}</Empty>
      ) : (
        <>
          <Box
            component="video"
            ref={player}
            key={videos[current].id}
            src={videos[current].src}
            poster={videos[current].thumbnail ? sizedImageUrl(videos[current].thumbnail, 1280) : undefined}
            controls
            // Nothing of the video loads before play: the poster (a sized copy) holds its place.
            preload="none"
            aria-label={v('player')}
            onPlay={() => setPlayed(true)}
            sx={{ width: '100%', aspectRatio: '16 / 9', maxHeight: 360, bgcolor: '#000', display: 'block' }}
          />
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 1 }}>
            {videos.length > 1 &&
              videos.map((video, i) => (
                <ButtonBase
                  key={video.id}
                  onClick={() => {
                    setCurrent(i);
                    setPlayed(false);
                  }}
                  aria-label={v('play', { n: i + 1 })}
                  aria-pressed={i === current}
                  sx={{ border: 2, borderColor: i === current ? 'primary.main' : 'transparent' }}
                >
                  {video.thumbnail ? (
                    <Box
                      component="img"
                      {...imageSources(video.thumbnail, '100px')}
                      alt=""
                      width={100}
                      height={56}
                      loading="lazy"
                      decoding="async"
                      sx={{ width: 100, height: 56, objectFit: 'cover', display: 'block' }}
                    />
                  ) : (
                    <Box sx={{ width: 100, height: 56, bgcolor: 'grey.300' }} />
                  )}
                </ButtonBase>
              ))}
            {canEditScan && (
              <Button
                variant="outlined"
                size="small"
                startIcon={<CameraAltIcon />}
                disabled={!played}
                onClick={() => void capture()}
                sx={{ ml: 'auto' }}
              >
                {v('capture')}
              </Button>
            )}
          </Box>
          {captures.length > 0 && (
            <Box
              component="ul"
              aria-label={v('captures')}
              sx={{ display: 'flex', gap: 1, overflowX: 'auto', listStyle: 'none', p: 0, m: 0, mt: 1 }}
            >
              {captures.map((c, i) => (
                <Box component="li" key={c.key} sx={{ flex: 'none', width: 120 }}>
                  <Box
                    component="img"
                    src={c.url}
                    alt={v('capture_alt', { n: i + 1 })}
                    sx={{ width: 120, height: 68, objectFit: 'cover', display: 'block' }}
                  />
                  <Box sx={{ display: 'flex', alignItems: 'center' }}>
                    <Button size="small" disabled={c.saved || c.saving} onClick={() => void saveCapture(c.key)}>
                      {c.saving ? <CircularProgress size={14} /> : c.saved ? v('saved') : v('save')}
                    </Button>
                    {!c.saved && (
                      <IconButton
                        size="small"
                        aria-label={`${v('remove')} ${v('capture_alt', { n: i + 1 })}`}
                        disabled={c.saving}
                        onClick={() => setCaptures((x) => x.filter((y) => y.key !== c.key))}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    )}
                  </Box>
                </Box>
              ))}
            </Box>
          )}
        </>
      )}
    </Section>
  );
};
