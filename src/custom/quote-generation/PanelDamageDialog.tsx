import { Dialog, DialogContent, CircularProgress } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { DamageCountDialog } from '../scan-page/DamageModal';
import type { QuotePanel } from './quoteForm';

/**
 * A panel card opens the scan page's damage modal. The scan is read as the scan page reads it (same cache
 * key); a save asks for the scan and the evaluation again, and the screen recounts the panel (quoteForm.recountPanels).
 */
export const PanelDamageDialog = ({ scanId, panel, onClose }: { scanId: number; panel: QuotePanel; onClose: () => void }) => {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const translate = useTranslate();
  const id = String(scanId);
  const scan = useQuery({
    queryKey: ['scans', 'getOne', id],
    queryFn: () => dataProvider.scan(id),
  });
  if (!scan.data || !panel.carPanel)
    return (
      <Dialog open onClose={onClose} aria-label={translate('app.loading')}>
        <DialogContent>
          <CircularProgress aria-label={translate('app.loading')} />
        </DialogContent>
      </Dialog>
    );
  return (
    <DamageCountDialog
      scan={scan.data}
      reload={() => Promise.all([scan.refetch(), queryClient.invalidateQueries({ queryKey: ['scans', 'evaluate'] })])}
      carPanel={panel.carPanel}
      label={panel.label}
      views={[]}
      onClose={onClose}
    />
  );
};
