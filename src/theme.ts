import { useMemo } from 'react';
import { defaultLightTheme, type RaThemeOptions } from 'react-admin';
import { DEFAULT_PRIMARY_COLOR, SIDEBAR_WIDTH } from './config';
import { useAgentBranding, type AgentBranding } from './session';

// MUI throws on colours it cannot parse, so a bad stored value falls back to the default.
const COLOR = /^(#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})|rgba?\([\d\s.,%]+\))$/i;
const validColor = (c: string | undefined) => (c && COLOR.test(c.trim()) ? c.trim() : undefined);

/** Spec 1 §9 breakpoints (mobile below 960) and sidebar; the selected agent's colours when set (spec 1 §4). */
export function createAppTheme(branding: Pick<AgentBranding, 'primaryColor' | 'textColor'> | null): RaThemeOptions {
  const main = validColor(branding?.primaryColor) ?? DEFAULT_PRIMARY_COLOR;
  const contrastText = validColor(branding?.textColor);
  return {
    ...defaultLightTheme,
    breakpoints: { values: { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920 } },
    palette: {
      ...defaultLightTheme.palette,
      primary: contrastText ? { main, contrastText } : { main },
      secondary: { main },
    },
    sidebar: { width: SIDEBAR_WIDTH, closedWidth: 55 },
  };
}

export function useAppTheme(): RaThemeOptions {
  const branding = useAgentBranding();
  return useMemo(() => createAppTheme(branding), [branding]);
}
