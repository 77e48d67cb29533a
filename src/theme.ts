import { useMediaQuery } from '@mui/material';
import { useMemo } from 'react';
import { defaultLightTheme, type RaThemeOptions } from 'react-admin';
import { DEFAULT_PRIMARY_COLOR, SIDEBAR_WIDTH } from './config';
import { useAgentBranding, type AgentBranding } from './session';

// MUI throws on colours it cannot parse, so a bad stored value falls back to the default.
const COLOR = /^(#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})|rgba?\([\d\s.,%]+\))$/i;
const validColor = (c: string | undefined) => (c && COLOR.test(c.trim()) ? c.trim() : undefined);

/**
 * The keyboard's focus on a button, icon button or chip: MUI marks it only with a ripple's faint tint, which a filled
 * button hardly shows. A dark ring outside a white one reads on the white page and on the agent's coloured header.
 */
const FOCUS_RING = { outline: '3px solid #1a1a1a', outlineOffset: '2px', boxShadow: '0 0 0 2px #fff' } as const;

/**
 * For a user whose system asks for less motion: dialogs, menus, drawers and collapses open and close at once, and
 * loading placeholders do not pulse (the page's own fade-in follows the same setting in its styles). A progress spinner
 * still turns, as the one sign that something is under way, and buttons keep their ripple: on a checkbox, a radio or
 * a switch it is the only mark of the keyboard's focus.
 */
const REDUCED_MOTION = {
  transitions: {
    create: () => 'none',
    duration: { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 },
  },
  components: {
    MuiSkeleton: { defaultProps: { animation: false } },
  },
} as const;

/** Breakpoints (mobile below 960) and sidebar; the selected agent's colours when set; less motion when asked for. */
export function createAppTheme(branding: Pick<AgentBranding, 'primaryColor' | 'textColor'> | null, reducedMotion = false): RaThemeOptions {
  const main = validColor(branding?.primaryColor) ?? DEFAULT_PRIMARY_COLOR;
  const contrastText = validColor(branding?.textColor);
  return {
    ...defaultLightTheme,
    breakpoints: { values: { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920 } },
    palette: {
      ...defaultLightTheme.palette,
      primary: contrastText ? { main, contrastText } : { main },
      secondary: { main },
      // Darker than MUI's defaults so that text in these colours (error messages and labels on the grey
      // filled inputs, outlined status chips) keeps WCAG AA's 4.5:1 on white, #f0f0f0 and the hover grey.
      error: { main: '#c62828' },
      warning: { main: '#a84300' },
      info: { main: '#01579b' },
      success: { main: '#1b5e20' },
    },
    sidebar: { width: SIDEBAR_WIDTH, closedWidth: 55 },
    ...(reducedMotion ? { transitions: REDUCED_MOTION.transitions } : {}),
    components: {
      ...defaultLightTheme.components,
      MuiButton: { styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } } },
      MuiIconButton: { styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } } },
      MuiChip: { styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } } },
      ...(reducedMotion ? REDUCED_MOTION.components : {}),
    },
  };
}

export function useAppTheme(): RaThemeOptions {
  const branding = useAgentBranding();
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)', { noSsr: true });
  return useMemo(() => createAppTheme(branding, reducedMotion), [branding, reducedMotion]);
}
