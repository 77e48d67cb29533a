import { portalButtonColors } from '../../domain/portal-colors';
import type { PortalAgent } from '../../dataProvider';

/** Buttons in the agent's colours, readable whatever they are (src/domain/portal-colors.ts). */
export type ButtonSx = { bgcolor: string; color: string; '&:hover': object; '&.Mui-disabled': object };

export const buttonSxOf = (agent: PortalAgent | null): ButtonSx => {
  const { background, text } = portalButtonColors(agent?.primary_color, agent?.text_color);
  return {
    bgcolor: background,
    color: text,
    '&:hover': { bgcolor: background, filter: 'brightness(0.9)' },
    '&.Mui-disabled': { bgcolor: background, color: text, opacity: 0.7 },
  };
};
