import { useCallback } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { useScanPage } from './context';

/**
 * Saved images: `POST scans/{id}/annotates` (multipart: file, scan id, edit flag) and
 * `DELETE scans/{id}/annotates/{imageId}`; the scan is loaded again so the strip shows the result at once.
 */
export function useAnnotates() {
  const { id, scan, reload } = useScanPage();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const save = useCallback(
    async (image: Blob, name = 'image.jpg') => {
      const form = new FormData();
      form.append('scan_id', String(scan.id));
      form.append('edit', '0');
      form.append('file', image, name);
      await dataProvider.addAnnotate(id, form);
      await reload();
      notify('app.scanPage.saved_images.saved', { type: 'success' });
    },
    [dataProvider, id, notify, reload, scan.id],
  );
  const remove = useCallback(
    async (imageId: number) => {
      await dataProvider.deleteAnnotate(id, imageId);
      await reload();
      notify('app.scanPage.saved_images.deleted', { type: 'success' });
    },
    [dataProvider, id, notify, reload],
  );
  return { save, remove };
}

/** A canvas as a JPEG blob. */
export const canvasJpeg = (canvas: HTMLCanvasElement, quality: number) =>
  new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('canvas is empty'))), 'image/jpeg', quality),
  );
