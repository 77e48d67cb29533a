import { useMemo } from 'react';
import { HistoryCard } from '../../components/HistoryCard';
import { tyreRows, wheelLabelsOf } from '../../domain/scan-view';
import { AgentQuote } from './AgentQuote';
import { Communication } from './Communication';
import { useScanPage } from './context';
import { DetectionImages } from './DetectionImages';
import { QuoteCheck } from './QuoteCheck';
import { ReportsCard } from './ReportsCard';
import { SavedImages } from './SavedImages';
import { ScanDetailsCard } from './ScanDetailsCard';
import { ScanVideo } from './ScanVideo';
import { TotalsCard } from './TotalsCard';

/** The main column below the sketch: the video, the images, the mail form and the quote area. */
export const MainColumnLater = () => {
  const { agentViewer } = useScanPage();
  return (
    <>
      <ScanVideo />
      <DetectionImages />
      {/* The agent viewer has no saved images. */}
      {!agentViewer && <SavedImages />}
      <Communication />
      {/* The quote area: the agent viewer quotes (products, parts, comments, save); the normal viewer may request a
          check of the scan's quote. */}
      {agentViewer ? <AgentQuote /> : <QuoteCheck />}
    </>
  );
};

/** The side column below the car: the scan's details, its totals, its reports and its history. */
export const SideColumnLater = () => {
  const { scan } = useScanPage();
  const wheels = useMemo(() => wheelLabelsOf(tyreRows(scan.data)), [scan.data]);
  return (
    <>
      <ScanDetailsCard />
      <TotalsCard />
      <ReportsCard />
      <HistoryCard subject="scan" id={scan.id} changed={scan} wheels={wheels} />
    </>
  );
};
