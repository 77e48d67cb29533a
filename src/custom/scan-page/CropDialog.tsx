import { useState } from 'react';
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Slider, Typography } from '@mui/material';
import Cropper, { type Area } from 'react-easy-crop';
import { useTranslate } from 'react-admin';
import { cropCanvasSize } from '../../domain/scan-view';
import { canvasJpeg } from './useAnnotates';

const loadImage = (src: string) =>
  new Promise<HTMLImageElement>((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`image ${src} did not load`));
    img.src = src;
  });

/** The crop of an image as a JPEG, its canvas at most 1,048,576 pixels. */
export async function cropToJpeg(src: string, area: Area): Promise<Blob> {
  const img = await loadImage(src);
  const size = cropCanvasSize(area.width, area.height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  canvas.getContext('2d')?.drawImage(img, area.x, area.y, area.width, area.height, 0, 0, size.width, size.height);
  return canvasJpeg(canvas, 0.92);
}

/** Saved Images → Crop: react-easy-crop with a zoom; Save stores the crop as a new saved image. */
export const CropDialog = ({ src, onSave, onClose }: { src: string; onSave: (jpeg: Blob) => Promise<void>; onClose: () => void }) => {
  const translate = useTranslate();
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [saving, setSaving] = useState(false);
  const s = (k: string) => translate(`app.scanPage.saved_images.${k}`);
  const save = async () => {
    if (!area) return;
    setSaving(true);
    try {
      await onSave(await cropToJpeg(src, area));
      onClose();
    } catch {
      // onSave has said why; the dialog stays open.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="crop-title">
      <DialogTitle id="crop-title">{s('crop_title')}</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ position: 'relative', width: '100%', height: 300, bgcolor: '#333' }}>
          <Cropper
            image={src}
            crop={crop}
            zoom={zoom}
            aspect={4 / 3}
            onCropChange={setCrop}
            onZoomChange={setZoom}
            onCropComplete={(_, px) => setArea(px)}
          />
        </Box>
        <Typography id="crop-zoom" variant="body2" sx={{ mt: 2 }}>
          {s('zoom')}
        </Typography>
        <Slider value={zoom} min={1} max={3} step={0.1} onChange={(_, v) => setZoom(v)} aria-labelledby="crop-zoom" />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{s('cancel')}</Button>
        <Button
          variant="contained"
          onClick={() => void save()}
          disabled={!area || saving}
          startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {s('save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
