import { Suspense, useState, type ReactNode } from 'react';
import { Box, keyframes, useMediaQuery, type Theme } from '@mui/material';
import { useLocation } from 'react-admin';
import { PageLoading } from '../../components/PageLoading';
import { useMountedInTransition } from '../../components/useMountedInTransition';
import { AppHeader } from './AppHeader';
import { Footer } from './Footer';
import { Sidebar } from './Sidebar';
import { useRefreshCurrentUser } from './useRefreshCurrentUser';

/** The page's fade-in as CSS: MUI's <Fade> forces a layout (reflow) on every page it shows, which would add main-thread blocking time. */
const fadeIn = keyframes`from { opacity: 0; } to { opacity: 1; }`;

/** The signed-in shell: left menu, header, page content with a fade, footer. */
export const AppLayout = ({ children }: { children: ReactNode }) => {
  const permanent = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  useRefreshCurrentUser();
  // The shell (menu, header, page) is the largest first render: it is built in slices after a light first frame.
  const ready = useMountedInTransition();
  if (!ready)
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', minHeight: '100vh' }}>
        <PageLoading />
      </Box>
    );

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <Sidebar permanent={permanent} open={drawerOpen} onClose={() => setDrawerOpen(false)} />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <AppHeader showMenuButton={!permanent} onMenuClick={() => setDrawerOpen(true)} />
        {/* At least a screen tall, so the footer starts below the first screen and a page's content arriving never moves it. */}
        <Box component="main" sx={{ flex: 1, p: { xs: 1, sm: 2 }, minWidth: 0, minHeight: '100vh' }}>
          <Box
            key={pathname}
            sx={{ animation: `${fadeIn} 300ms ease-in-out`, '@media (prefers-reduced-motion: reduce)': { animation: 'none' } }}
          >
            <Suspense fallback={<PageLoading />}>{children}</Suspense>
          </Box>
        </Box>
        <Footer />
      </Box>
    </Box>
  );
};
