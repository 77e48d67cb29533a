import { panelLabelOf } from './scan-view';
import type { ArchData } from './records';

/** A translator: a message key and its parameters → text (react-admin's `translate`). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** What a damage close-up says about itself (a scan's or the portal's detection). */
export interface DamageFacts {
  carPanel: string;
  type: string;
  level: string;
  width_mm?: number | null;
  height_mm?: number | null;
}

/** A measure in mm as people write it: whole, or with one decimal. */
const mm = (n: number) => String(Math.round(n * 10) / 10);

/**
 * A damage close-up's caption, also its alt text: the panel's label, the damage in words and its size when measured,
 * 'Right C Pillar — Heavy dent — 24 × 18 mm'. Without a label the panel code is written out ('right_c_pillar' →
 * 'Right C Pillar'); an unknown level shows as it came.
 */
export function damageImageText(damage: DamageFacts, translate: Translate, panelLabel?: string | null): string {
  const code = damage.level.toLowerCase();
  const level = translate(`app.scanPage.level.${code}`, { _: damage.level });
  const kind = damage.type === 'scratchs' ? 'scratch' : 'dent';
  const parts = [panelLabel || panelLabelOf(damage.carPanel), translate(`app.imageViewer.${kind}`, { level })];
  const { width_mm: width, height_mm: height } = damage;
  if (width && height && width > 0 && height > 0) parts.push(translate('app.imageViewer.size', { width: mm(width), height: mm(height) }));
  return parts.join(' — ');
}

/** Each car panel's label from the sketch's panel groups (`GET archData/search`), by panel code. */
export function panelLabels(arch: Pick<ArchData, 'panel_groups'> | undefined): Map<string, string> {
  const labels = new Map<string, string>();
  for (const group of arch?.panel_groups ?? [])
    for (const p of group.panels) if (!labels.has(p.carPanel) && (p.label || p.name)) labels.set(p.carPanel, p.label || p.name);
  return labels;
}
