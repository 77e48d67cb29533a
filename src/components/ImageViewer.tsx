import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import { Box, Dialog, DialogContent, DialogTitle, IconButton, Tooltip, Typography, useMediaQuery, useTheme } from '@mui/material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import CloseIcon from '@mui/icons-material/Close';
import ZoomInIcon from '@mui/icons-material/ZoomIn';
import ZoomOutIcon from '@mui/icons-material/ZoomOut';
import FitScreenIcon from '@mui/icons-material/FitScreen';
import { useTranslate } from 'react-admin';
import { viewerSources } from '../domain/images';

export interface ViewerImage {
  src: string;
  /** The image's text: its alt text and the viewer's caption. */
  alt: string;
}

const MAX_ZOOM = 4;
const ZOOM_STEP = 1.5;
const clampZoom = (z: number) => Math.min(MAX_ZOOM, Math.max(1, z));
type Point = { x: number; y: number };
const ORIGIN: Point = { x: 0, y: 0 };

/**
 * A full-size image viewer over a list of images (a panel's close-ups, a grid, a strip): zoom by the buttons, the wheel,
 * a pinch or + / -, pan a zoomed image by dragging, previous / next by the buttons or the arrow keys, Escape closes.
 * MUI's Dialog keeps the focus inside and gives it back to the opener; `returnFocus` names another element when the
 * opener goes away (a menu item). A button that disables itself (Zoom out back at 100 %, Next on the last image)
 * would drop the focus to the page, where the keys no longer reach the viewer: the focus moves to the viewer instead.
 */
export const ImageViewer = ({
  images,
  start,
  onClose,
  returnFocus,
}: {
  images: ViewerImage[];
  start: number;
  onClose: () => void;
  returnFocus?: HTMLElement | null;
}) => {
  const translate = useTranslate();
  const theme = useTheme();
  const small = useMediaQuery(theme.breakpoints.down('sm'));
  const [index, setIndex] = useState(() => Math.min(Math.max(start, 0), images.length - 1));
  const [zoom, setZoom] = useState(1);
  const [offset, setOffset] = useState<Point>(ORIGIN);
  const pointers = useRef(new Map<number, Point>());
  const pinch = useRef<number | null>(null);
  // No easing while a finger or the mouse moves the image, so it follows without lag.
  const [dragging, setDragging] = useState(false);
  const t = (k: string, args?: Record<string, unknown>) => translate(`app.imageViewer.${k}`, args);

  useEffect(
    () => () => {
      if (returnFocus?.isConnected) setTimeout(() => returnFocus.focus());
    },
    [returnFocus],
  );

  const paper = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const focused = document.activeElement;
    const lost = !focused || focused === document.body || (focused instanceof HTMLButtonElement && focused.disabled);
    if (lost) paper.current?.focus();
  }, [index, zoom]);

  const image = images[index];
  const zoomTo = (z: number) => {
    const next = clampZoom(z);
    setZoom(next);
    if (next === 1) setOffset(ORIGIN);
  };
  const go = (to: number) => {
    if (to < 0 || to >= images.length) return;
    setIndex(to);
    zoomTo(1);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const actions: Record<string, () => void> = {
      ArrowRight: () => go(index + 1),
      ArrowLeft: () => go(index - 1),
      '+': () => zoomTo(zoom * ZOOM_STEP),
      '=': () => zoomTo(zoom * ZOOM_STEP),
      '-': () => zoomTo(zoom / ZOOM_STEP),
      '0': () => zoomTo(1),
    };
    const action = actions[e.key];
    if (!action || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    action();
  };

  const onWheel = (e: WheelEvent) => zoomTo(e.deltaY < 0 ? zoom * 1.2 : zoom / 1.2);
  const onPointerDown = (e: PointerEvent) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    setDragging(true);
  };
  const onPointerMove = (e: PointerEvent) => {
    const last = pointers.current.get(e.pointerId);
    if (!last) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinch.current) zoomTo(zoom * (distance / pinch.current));
      pinch.current = distance;
    } else if (zoom > 1) {
      setOffset((o) => ({ x: o.x + e.clientX - last.x, y: o.y + e.clientY - last.y }));
    }
  };
  const onPointerUp = (e: PointerEvent) => {
    pointers.current.delete(e.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
    if (pointers.current.size === 0) setDragging(false);
  };

  if (!image) return null;
  const percent = Math.round(zoom * 100);
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      fullScreen={small}
      maxWidth="lg"
      aria-labelledby="image-viewer-title"
      aria-describedby="image-viewer-keys"
      disableRestoreFocus={!!returnFocus}
      onKeyDown={onKeyDown}
      slotProps={{ paper: { ref: paper, tabIndex: -1 } }}
    >
      <DialogTitle id="image-viewer-title" sx={{ pr: 7, overflowWrap: 'anywhere' }} aria-live="polite">
        {image.alt}
      </DialogTitle>
      <IconButton aria-label={t('close')} onClick={onClose} sx={{ position: 'absolute', top: 8, right: 8 }}>
        <CloseIcon />
      </IconButton>
      <DialogContent dividers sx={{ p: 0, display: 'flex', flexDirection: 'column' }}>
        <Box
          onWheel={onWheel}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onDoubleClick={() => zoomTo(zoom > 1 ? 1 : 2)}
          sx={{
            flex: 1,
            minHeight: small ? 0 : '60vh',
            height: small ? 'auto' : '70vh',
            overflow: 'hidden',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            bgcolor: 'grey.900',
            touchAction: 'none',
            cursor: zoom > 1 ? 'grab' : 'zoom-in',
            userSelect: 'none',
          }}
          data-testid="image-viewer-stage"
        >
          <Box
            component="img"
            key={image.src}
            {...viewerSources(image.src)}
            alt={image.alt}
            draggable={false}
            sx={{
              maxWidth: '100%',
              maxHeight: '100%',
              objectFit: 'contain',
              transform: `translate(${offset.x}px, ${offset.y}px) scale(${zoom})`,
              transition: dragging ? 'none' : 'transform 120ms ease-out',
            }}
          />
        </Box>
      </DialogContent>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'center', gap: 0.5, px: 1, py: 0.5 }}>
        <Tooltip title={t('previous')}>
          <span>
            <IconButton aria-label={t('previous')} onClick={() => go(index - 1)} disabled={index === 0}>
              <ChevronLeftIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Typography variant="body2" sx={{ minWidth: 56, textAlign: 'center' }}>
          {t('position', { n: index + 1, total: images.length })}
        </Typography>
        <Tooltip title={t('next')}>
          <span>
            <IconButton aria-label={t('next')} onClick={() => go(index + 1)} disabled={index === images.length - 1}>
              <ChevronRightIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Box sx={{ width: 16 }} />
        <Tooltip title={t('zoom_out')}>
          <span>
            <IconButton aria-label={t('zoom_out')} onClick={() => zoomTo(zoom / ZOOM_STEP)} disabled={zoom <= 1}>
              <ZoomOutIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Typography variant="body2" sx={{ minWidth: 48, textAlign: 'center' }} role="status" aria-label={t('zoom_level', { percent })}>
          {percent}%
        </Typography>
        <Tooltip title={t('zoom_in')}>
          <span>
            <IconButton aria-label={t('zoom_in')} onClick={() => zoomTo(zoom * ZOOM_STEP)} disabled={zoom >= MAX_ZOOM}>
              <ZoomInIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t('zoom_reset')}>
          <span>
            <IconButton aria-label={t('zoom_reset')} onClick={() => zoomTo(1)} disabled={zoom === 1}>
              <FitScreenIcon />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
      <Typography id="image-viewer-keys" variant="caption" color="text.secondary" sx={{ px: 2, pb: 1, textAlign: 'center' }}>
        {t('keys')}
      </Typography>
    </Dialog>
  );
};
