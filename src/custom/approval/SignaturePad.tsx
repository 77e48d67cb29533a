import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useRef } from 'react';
import { useTranslate } from 'react-admin';

const WIDTH = 600;
const HEIGHT = 200;

/**
 * A drawn signature: a canvas that follows a finger, a pen or the mouse (pointer events), reporting a PNG data URL
 * after each stroke, or null once cleared. Without a pointer (a keyboard, a switch), 'Sign with my typed name' writes
 * the typed full name on the canvas in a handwriting face and reports that picture the same way.
 */
export function SignaturePad({
  onChange,
  label,
  typedName,
}: {
  onChange: (png: string | null) => void;
  label: string;
  /** The full name typed above, which the typed signature writes. */
  typedName: string;
}) {
  const translate = useTranslate();
  const canvas = useRef<HTMLCanvasElement>(null);
  const last = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    ctx.strokeStyle = '#0C1839';
  }, []);

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * WIDTH) / r.width, y: ((e.clientY - r.top) * HEIGHT) / r.height };
  };
  const down = (e: React.PointerEvent<HTMLCanvasElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    last.current = point(e);
  };
  const move = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const ctx = canvas.current?.getContext('2d');
    if (!last.current || !ctx) return;
    const p = point(e);
    ctx.beginPath();
    ctx.moveTo(last.current.x, last.current.y);
    ctx.lineTo(p.x, p.y);
    ctx.stroke();
    last.current = p;
  };
  const up = () => {
    if (!last.current) return;
    last.current = null;
    onChange(canvas.current?.toDataURL('image/png') ?? null);
  };
  const clear = () => {
    canvas.current?.getContext('2d')?.clearRect(0, 0, WIDTH, HEIGHT);
    onChange(null);
  };
  const signTyped = () => {
    const ctx = canvas.current?.getContext('2d');
    const name = typedName.trim();
    if (!ctx || !name) return;
    ctx.clearRect(0, 0, WIDTH, HEIGHT);
    ctx.save();
    ctx.fillStyle = '#0C1839';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    // As large as fits the pad's width.
    let size = 72;
    do {
      ctx.font = `italic ${size}px "Brush Script MT", "Segoe Script", cursive`;
      size -= 4;
    } while (size > 16 && ctx.measureText(name).width > WIDTH - 40);
    ctx.fillText(name, WIDTH / 2, HEIGHT / 2);
    ctx.restore();
    onChange(canvas.current?.toDataURL('image/png') ?? null);
  };

  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Box
        component="canvas"
        ref={canvas}
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-label={label}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
        sx={{
          width: '100%',
          maxWidth: WIDTH,
          aspectRatio: `${WIDTH} / ${HEIGHT}`,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          touchAction: 'none',
          bgcolor: '#fff',
        }}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={signTyped} size="small" disabled={!typedName.trim()}>
          {translate('app.approval.page.sign_typed')}
        </Button>
        <Button onClick={clear} size="small">
          {translate('app.approval.page.clear')}
        </Button>
      </Box>
    </Box>
  );
}
