import { Suspense, useState, type ReactNode } from 'react';
import { Box, keyframes, useMediaQuery, type Theme } from '@mui/material';
import { SkipNavigationButton, useLocation } from 'react-admin';
import { PageLoading } from '../../components/PageLoading';
import { useMountedInTransition } from '../../components/useMountedInTransition';
import { AppHeader } from './AppHeader';
import { Footer } from './Footer';
import { Sidebar } from './Sidebar';
import { useRefreshCurrentUser } from './useRefreshCurrentUser';

/** The page's fade-in as CSS: MUI's <Fade> forces a layout (reflow) on every page it shows, which would add main-thread blocking time. */
const fadeIn = keyframes`from { opacity: 0; } to { opacity: 1; }`;
const FADE_SX = { animation: `${fadeIn} 300ms ease-in-out`, '@media (prefers-reduced-motion: reduce)': { animation: 'none' } } as const;

/** react-admin draws it in the contrast text on the page's background, which is unreadable on a light theme. */
const SKIP_SX = {
  bgcolor: 'primary.main',
  color: 'primary.contrastText',
  '&:hover': { bgcolor: 'primary.dark', opacity: 1 },
} as const;

/**
 * Whether the user has moved to another page since the app started. Page content fades between pages; the first page
 * of a visit replaces the loading screen at once, since a fade there only holds back what the user came to see (its
 * largest picture counts as shown once the fade is over: about 0.3 s later, more on a busy phone).
 */
function useNavigated(pathname: string): boolean {
  const [first] = useState(pathname);
  const [navigated, setNavigated] = useState(false);
  // Derived from the previous render (React's pattern for it): once true it stays, so a return to the first page fades too.
  if (!navigated && pathname !== first) setNavigated(true);
  return navigated || pathname !== first;
}

/** The signed-in shell: left menu, header, page content (faded in when the user moves to it), footer. */
export const AppLayout = ({ children }: { children: ReactNode }) => {
  const permanent = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  const navigated = useNavigated(pathname);
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
      {/* The page's first stop for the Tab key, shown only while focused: it moves on to the page's content past the menu. */}
      <SkipNavigationButton sx={SKIP_SX} />
      <Sidebar permanent={permanent} open={drawerOpen} onClose={() => setDrawerOpen(false)} />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <AppHeader showMenuButton={!permanent} onMenuClick={() => setDrawerOpen(true)} />
        {/* At least a screen tall, so the footer starts below the first screen and a page's content arriving never moves it. */}
        <Box component="main" id="main-content" sx={{ flex: 1, p: { xs: 1, sm: 2 }, minWidth: 0, minHeight: '100vh' }}>
          <Box key={pathname} sx={navigated ? FADE_SX : undefined}>
            <Suspense fallback={<PageLoading />}>{children}</Suspense>
          </Box>
        </Box>
        <Footer />
      </Box>
    </Box>
  );
};
