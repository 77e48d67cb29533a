import { useState } from 'react';
import { Box, Card, Link, Tab, Tabs, Typography } from '@mui/material';
import { LinkBase, useTranslate } from 'react-admin';
import { DamageSketch } from './DamageSketch';
import { RimsTab } from './RimsTab';
import { TireTab } from './TireTab';
import { useScanPage, type Scan } from './context';

/** The tabs' known values, in this order. */
export const PARTS = ['arch', 'chasis', 'tire', 'rims'] as const;
export type Part = (typeof PARTS)[number];

/** The parts the scan has results for. */
export const partsOf = (scan: Pick<Scan, Part>) => PARTS.filter((p) => scan[p] !== null && scan[p] !== undefined);

/** The part the page opens on: the first tab when the scan has meta, else the part of its type. */
export const firstPart = (scan: Pick<Scan, Part | 'meta' | 'type'>): Part =>
  (scan.meta ? partsOf(scan)[0] : undefined) ?? (scan.type === 'tire' ? 'tire' : scan.type === 'chasis' ? 'chasis' : 'arch');

/** The arch and chasis parts show the car sketch. */
export const showsSketch = (part: Part) => part === 'arch' || part === 'chasis';

const PartContent = ({ part }: { part: Part }) => {
  const translate = useTranslate();
  const { scan, agentViewer, agentId } = useScanPage();
  if (part === 'tire') return <TireTab />;
  if (part === 'rims') return <RimsTab />;
  return (
    <>
      {/* Quote Evaluation on the arch tab, only when the dent count is not 0; the agent viewer's keeps the
          agent (Quote Generation's agent variant). */}
      {part === 'arch' && scan.dentCount !== 0 && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
          <Link
            component={LinkBase}
            to={agentViewer && agentId ? `/quotes/${scan.id}/agents/${encodeURIComponent(agentId)}` : `/quotes/${scan.id}`}
          >
            {translate('app.scanPage.quote_evaluation')}
          </Link>
        </Box>
      )}
      <DamageSketch />
    </>
  );
};

/**
 * The left column: tabs for the parts the scan has, only when it has meta; otherwise the 'Scans' title bar over
 * the part of the scan's type.
 */
export const PartTabs = () => {
  const translate = useTranslate();
  const { scan } = useScanPage();
  const parts = scan.meta ? partsOf(scan) : [];
  const [chosen, setChosen] = useState<Part | null>(null);
  const current = chosen && parts.includes(chosen) ? chosen : (parts[0] ?? null);
  const fallback = firstPart(scan);
  return (
    <Card variant="outlined" sx={{ minWidth: 0 }}>
      {current ? (
        <>
          <Tabs
            value={current}
            onChange={(_, v: Part) => setChosen(v)}
            aria-label={translate('app.scanPage.tabs')}
            variant="scrollable"
            allowScrollButtonsMobile
            sx={{ borderBottom: 1, borderColor: 'divider' }}
          >
            {parts.map((p) => (
              <Tab key={p} value={p} label={translate(`app.scanPage.tab.${p}`)} id={`part-tab-${p}`} aria-controls={`part-panel-${p}`} />
            ))}
          </Tabs>
          <Box role="tabpanel" id={`part-panel-${current}`} aria-labelledby={`part-tab-${current}`} sx={{ p: 2, minWidth: 0 }}>
            <PartContent part={current} />
          </Box>
        </>
      ) : (
        <>
          <Box sx={{ px: 2, py: 1.5, bgcolor: 'primary.main', color: 'primary.contrastText' }}>
            <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
              {translate('app.scanPage.title_bar')}
            </Typography>
          </Box>
          <Box sx={{ p: 2, minWidth: 0 }}>
            <PartContent part={fallback} />
          </Box>
        </>
      )}
    </Card>
  );
};
