import type { TranslateFunction } from 'react-admin';
import { panelLabelOf } from '../domain/scan-view';

/**
 * A damage count's or a tyre choice's field as people read it, or null for any other field: the history names a count
 * `<panel>.<dents|scratchs>.<level>` and a scan's conflict `counts.<panel>.<dents|scratchs>.<level>`, both read
 * 'Right Front Guard · Dents (Medium)'; a scan's tyre choice `tyre_repairs.1L` and a quote's `tyre.1.L` read 'Tyre 1 L'.
 */
export function damageFieldLabel(field: string, translate: TranslateFunction): string | null {
  const count = /^(?:counts\.)?(.+)\.(dents|scratchs)\.(\w+)$/.exec(field);
  if (count)
    return `${panelLabelOf(count[1])} · ${translate(`app.history.fields.${count[2]}`)} (${translate(`app.scanPage.level.${count[3]}`, { _: count[3] })})`;
  const tyre = /^tyre(?:\.(\d+)\.|_repairs\.(\d+))([LR])$/.exec(field);
  if (tyre) return translate('app.history.fields.tyre', { wheel: `${tyre[1] ?? tyre[2]} ${tyre[3]}` });
  return null;
}
