import type { TranslateFunction } from 'react-admin';
import { wheelName } from '../domain/invoice-labels';
import { tyreLabel } from '../domain/scan-codes';
import { panelLabelOf } from '../domain/scan-view';

/** A tyre choice's field: a scan's `tyre_repairs.1L`, a quote's `tyre.1.L` (row, then L or R). */
export const TYRE_CHOICE_FIELD = /^tyre(?:\.(\d+)\.|_repairs\.(\d+))([LR])$/;

/** The wheels' labels by row and side (`1L`), as the record's tyres name them ('FRONT LEFT'). */
export type WheelLabels = ReadonlyMap<string, string>;

/** A tyre choice's stored value ('replace') in the words of the scan page's buttons, in the user's language. */
export const tyreChoiceText = (value: string, translate: TranslateFunction) =>
  translate(`app.invoice.document.tyre_choices.${value}`, { _: value });

/**
 * A damage count's or a tyre choice's field as people read it, or null for any other field: the history names a count
 * `<panel>.<dents|scratchs>.<level>` and a scan's conflict `counts.<panel>.<dents|scratchs>.<level>`, both read
 * 'Right Front Guard · Dents (Medium)'; a scan's tyre choice `tyre_repairs.1L` and a quote's `tyre.1.L` read
 * 'Tyre FRONT LEFT' (in Japanese 'タイヤ 左前輪'): the wheel as `wheels` names it, else by its row (row 1 the front).
 */
export function damageFieldLabel(field: string, translate: TranslateFunction, locale: string, wheels?: WheelLabels): string | null {
  const count = /^(?:counts\.)?(.+)\.(dents|scratchs)\.(\w+)$/.exec(field);
  if (count)
    return `${panelLabelOf(count[1])} · ${translate(`app.history.fields.${count[2]}`)} (${translate(`app.scanPage.level.${count[3]}`, { _: count[3] })})`;
  const tyre = TYRE_CHOICE_FIELD.exec(field);
  if (tyre) {
    const row = Number(tyre[1] ?? tyre[2]);
    const direction = tyre[3] as 'L' | 'R';
    // Without the record's wheels, no row is known to be the last (the rear): later rows read by their number.
    const label = wheels?.get(`${row}${direction}`) ?? tyreLabel(row, Number.POSITIVE_INFINITY, direction);
    return translate('app.history.fields.tyre', { wheel: wheelName(label, locale) });
  }
  return null;
}
