import { useEffect, useRef, useState } from 'react';
import {
  Box,
  Button,
  ButtonBase,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Menu,
  MenuItem,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { useTranslate } from 'react-admin';
import { Confirm } from '../../components/Confirm';
import { ImageViewer } from '../../components/ImageViewer';
import { useNotifyError } from '../../components/useNotifyError';
import { lazyComponent } from '../../components/lazyComponent';
import { DetailRow } from './ScanDetailsCard';
import { Empty, Section } from './Section';
import { annotateImage } from './annotate';
import { useAnnotates } from './useAnnotates';
import { useScanPage, type Scan } from './context';
import { imageSources } from '../../domain/images';

// react-easy-crop loads with the first crop.
const CropDialog = lazyComponent(() => import('./CropDialog'), 'CropDialog');

type Saved = Scan['annotates'][number];
type Open = { kind: 'crop' | 'info'; image: Saved; n: number } | null;
/** An image's menu, and the reader's (docs/ARCHITECTURE.md, "Access model"). */
const EDIT_ACTIONS = ['view', 'crop', 'annotation', 'info'] as const;
const VIEW_ACTIONS = ['view', 'info'] as const;

/**
 * Saved Images: the horizontally scrolling strip of 100×100 thumbnails (vehicle photos included), each with
 * View / Crop / Annotation / Info; a click or Enter on a thumbnail (or View) opens the viewer over the strip. Select mode
 * picks images for the mail, otherwise each has a delete icon, which asks first. Crop, Annotation and delete save or
 * remove images: only with `scan_edit` (docs/ARCHITECTURE.md, "Access model").
 */
export const SavedImages = () => {
  const translate = useTranslate();
  const notifyError = useNotifyError();
  const { scan, selection, toggleSelected, canEditScan } = useScanPage();
  const { save, remove } = useAnnotates();
  const [selecting, setSelecting] = useState(false);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; image: Saved; n: number } | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const [viewing, setViewing] = useState<{ index: number; returnFocus?: HTMLElement } | null>(null);
  const [deleting, setDeleting] = useState<{ image: Saved; name: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const thumbs = useRef(new Map<number, HTMLImageElement>());
  const s = (k: string, args?: Record<string, unknown>) => translate(`app.scanPage.saved_images.${k}`, args);
  const images = scan.annotates;
  const nameOf = (image: Saved, n: number) => s(image.vehicle_photo ? 'vehicle_photo' : 'image', { n });

  const saveImage = async (jpeg: Blob) => {
    try {
      await save(jpeg);
    } catch (error) {
      notifyError(error);
      throw error;
    }
  };
  const pendingAnnotation = useRef<{ image: Saved; anchor: HTMLElement } | null>(null);
  // After the annotation popup, the focus goes back to the image's actions button once it is enabled again.
  const refocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (busy || !refocus.current) return;
    if (refocus.current.isConnected) refocus.current.focus();
    refocus.current = null;
  }, [busy]);
  const annotate = async (image: Saved, returnFocus: HTMLElement | null) => {
    const element = thumbs.current.get(image.id);
    if (!element) return;
    setBusy(true);
    try {
      const jpeg = await annotateImage(element, { label: s('annotation'), returnFocus });
      if (jpeg) await saveImage(jpeg);
    } catch {
      // saveImage has said why.
    } finally {
      refocus.current = returnFocus;
      setBusy(false);
    }
  };
  const del = async (image: Saved) => {
    setBusy(true);
    try {
      await remove(image.id);
      setDeleting(null);
    } catch (error) {
      // The confirmation stays open.
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section
      id="saved-images"
      title={s('title')}
      action={
        images.length > 0 && (
          <Button size="small" onClick={() => setSelecting((x) => !x)} aria-pressed={selecting}>
            {translate(selecting ? 'app.scanPage.select_done' : 'app.scanPage.select_mode')}
          </Button>
        )
      }
    >
      {images.length === 0 ? (
        <Empty>{s('empty')}</Empty>
      ) : (
        <Box
          component="ul"
          aria-label={s('title')}
          tabIndex={0}
          sx={{ display: 'flex', gap: 1, overflowX: 'auto', listStyle: 'none', m: 0, p: 0, pb: 1 }}
          data-testid="saved-images"
        >
          {images.map((image, i) => {
            const n = i + 1;
            const name = nameOf(image, n);
            return (
              <Box component="li" key={image.id} sx={{ flex: 'none', position: 'relative', width: 100, height: 100 }}>
                <ButtonBase
                  onClick={() => setViewing({ index: i })}
                  aria-label={translate('app.imageViewer.open', { name })}
                  aria-haspopup="dialog"
                  sx={{ display: 'block', borderRadius: 1, cursor: 'zoom-in' }}
                >
                  <Box
                    component="img"
                    ref={(el: HTMLImageElement | null) => {
                      if (el) thumbs.current.set(image.id, el);
                      else thumbs.current.delete(image.id);
                    }}
                    {...imageSources(image.src, '100px')}
                    alt={name}
                    loading="lazy"
                    decoding="async"
                    sx={{
                      width: 100,
                      height: 100,
                      objectFit: 'cover',
                      display: 'block',
                      border: 1,
                      borderColor: 'divider',
                      borderRadius: 1,
                    }}
                  />
                </ButtonBase>
                <IconButton
                  size="small"
                  aria-label={s('menu', { n })}
                  aria-haspopup="menu"
                  onClick={(e) => setMenu({ anchor: e.currentTarget, image, n })}
                  disabled={busy}
                  sx={{ position: 'absolute', top: 2, left: 2, bgcolor: 'rgba(255,255,255,0.85)', '&:hover': { bgcolor: '#fff' } }}
                >
                  <MoreVertIcon fontSize="small" />
                </IconButton>
                {selecting ? (
                  <Checkbox
                    checked={selection.annotates.has(image.id)}
                    onChange={() => toggleSelected('annotates', image.id)}
                    slotProps={{ input: { 'aria-label': translate('app.scanPage.modal.select_image', { name }) } }}
                    sx={{
                      position: 'absolute',
                      top: 0,
                      right: 0,
                      p: 0.5,
                      bgcolor: 'rgba(255,255,255,0.85)',
                      '&:hover': { bgcolor: '#fff' },
                    }}
                  />
                ) : (
                  canEditScan && (
                    <IconButton
                      size="small"
                      aria-label={s('delete', { n })}
                      onClick={() => setDeleting({ image, name })}
                      disabled={busy}
                      sx={{ position: 'absolute', top: 2, right: 2, bgcolor: 'rgba(255,255,255,0.85)', '&:hover': { bgcolor: '#fff' } }}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  )
                )}
              </Box>
            );
          })}
        </Box>
      )}
      <Menu
        anchorEl={menu?.anchor}
        open={!!menu}
        onClose={() => setMenu(null)}
        slotProps={{
          transition: {
            // The annotation popup opens once the menu has gone and given the focus back, so the popup keeps it.
            onExited: () => {
              const next = pendingAnnotation.current;
              pendingAnnotation.current = null;
              if (next) void annotate(next.image, next.anchor);
            },
          },
        }}
      >
        {(canEditScan ? EDIT_ACTIONS : VIEW_ACTIONS).map((k) => (
          <MenuItem
            key={k}
            onClick={() => {
              if (!menu) return;
              setMenu(null);
              if (k === 'annotation') pendingAnnotation.current = { image: menu.image, anchor: menu.anchor };
              else if (k === 'view') setViewing({ index: menu.n - 1, returnFocus: menu.anchor });
              else setOpen({ kind: k, image: menu.image, n: menu.n });
            }}
          >
            {s(k)}
          </MenuItem>
        ))}
      </Menu>
      {open?.kind === 'crop' && <CropDialog src={open.image.src} onSave={saveImage} onClose={() => setOpen(null)} />}
      {open?.kind === 'info' && (
        <Dialog open onClose={() => setOpen(null)} fullWidth maxWidth="xs" aria-labelledby="saved-image-title">
          <DialogTitle id="saved-image-title">{s('info_title')}</DialogTitle>
          <DialogContent dividers>
            <DetailRow label={s('info_kind')}>{s(open.image.vehicle_photo ? 'info_kind_photo' : 'info_kind_saved')}</DetailRow>
            <DetailRow label={s('info_file')}>{open.image.path}</DetailRow>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(null)}>{s('close')}</Button>
          </DialogActions>
        </Dialog>
      )}
      {viewing && (
        <ImageViewer
          images={images.map((image, i) => ({ src: image.src, alt: nameOf(image, i + 1) }))}
          start={viewing.index}
          returnFocus={viewing.returnFocus}
          onClose={() => setViewing(null)}
        />
      )}
      {/* The app's delete confirmation, as on every list: a deleted image is gone from storage, so nothing to undo. */}
      <Confirm
        isOpen={!!deleting}
        loading={busy}
        title="app.crud.delete_title"
        content={deleting?.name ?? ''}
        cancel="app.crud.delete_cancel"
        confirm="app.crud.delete_confirm"
        confirmColor="warning"
        onConfirm={() => deleting && void del(deleting.image)}
        onClose={() => setDeleting(null)}
      />
    </Section>
  );
};
