import { Suspense, useState, type ReactNode } from 'react';
import { Box, Fade, useMediaQuery, type Theme } from '@mui/material';
import { useLocation } from 'react-admin';
import { PageLoading } from '../../components/PageLoading';
import { AppHeader } from './AppHeader';
import { Footer } from './Footer';
import { Sidebar } from './Sidebar';
import { useRefreshCurrentUser } from './useRefreshCurrentUser';

/** The signed-in shell of spec 1 §2: left menu, header, page content with a fade, footer. */
export const AppLayout = ({ children }: { children: ReactNode }) => {
  const permanent = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  useRefreshCurrentUser();

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <Sidebar permanent={permanent} open={drawerOpen} onClose={() => setDrawerOpen(false)} />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <AppHeader showMenuButton={!permanent} onMenuClick={() => setDrawerOpen(true)} />
        <Box component="main" sx={{ flex: 1, p: { xs: 1, sm: 2 }, minWidth: 0 }}>
          <Fade key={pathname} in appear timeout={300}>
            <Box>
              <Suspense fallback={<PageLoading />}>{children}</Suspense>
            </Box>
          </Fade>
        </Box>
        <Footer />
      </Box>
    </Box>
  );
};
