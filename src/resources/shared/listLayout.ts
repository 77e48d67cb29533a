import type { SyntheticEvent } from 'react';
import { useListContext } from 'react-admin';

/** Below the theme's sm breakpoint (600 px): a phone, where a list's rows show as cards. */
const PHONE = '@media (max-width:599.95px)';

/**
 * A list's sideways-scrolling box (`.RaList-content`) is a scroll-state container, so the columns that stay at the
 * right can tell whether the table still scrolls further right.
 */
export const LIST_SCROLLER_SX = { overflowX: 'auto', containerType: 'scroll-state' } as const;

/**
 * The Action column stays at the right edge while a wide table scrolls sideways, so a row's buttons are always in view.
 * While there is more of the table to the right, a shadow on its left edge falls on the columns passing beneath it,
 * so a reader sees they go on (a browser without scroll-state queries shows no shadow).
 */
const STICKY_RIGHT = { whiteSpace: 'nowrap', position: 'sticky', right: 0, zIndex: 1, bgcolor: 'background.paper' } as const;
const STICKY_EDGE = {
  '@container scroll-state(scrollable: right)': { boxShadow: 'inset 1px 0 0 rgba(0, 0, 0, 0.12), -4px 0 8px -2px rgba(0, 0, 0, 0.25)' },
} as const;
/**
 * On a phone a row's actions sit at its card's right edge; the card's other lines keep their label left and value
 * right. Doubled class: it outweighs cardRowsSx's rule for every cell.
 */
const ACTIONS_RIGHT = { [PHONE]: { '&&': { justifyContent: 'flex-end' } } } as const;
export const ACTION_COLUMN_SX = { ...STICKY_RIGHT, ...STICKY_EDGE, ...ACTIONS_RIGHT } as const;

/**
 * A column that stays at the right edge beside the Action column (the quotes list's Grand Total): the Action column
 * then has a fixed width, `actionWidth`, and this one sticks just left of it.
 */
export const besideActionsSx = (actionWidth: number) => ({
  action: { ...STICKY_RIGHT, ...ACTIONS_RIGHT, width: actionWidth, minWidth: actionWidth, maxWidth: actionWidth, boxSizing: 'border-box' },
  beside: { ...STICKY_RIGHT, ...STICKY_EDGE, right: actionWidth },
});

/** Around a row's action buttons: their clicks (and their dialogs') do not also open the row. */
export const stopRowClick = (event: SyntheticEvent) => event.stopPropagation();

/**
 * A DataTable's sx: at least `minWidth` px wide from 600 px up (a wider screen scrolls it inside its card), and on a
 * phone each row a card of "label value" lines with the actions last, so nothing scrolls sideways. The heading row
 * leaves the screen but not the accessibility tree, so the cells keep their column names.
 */
export const cardRowsSx = (minWidth = 0) =>
  ({
    '& .RaDataTable-table': { minWidth },
    [PHONE]: {
      '& .RaDataTable-table': { minWidth: 0, display: 'block' },
      '& thead': { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)' },
      '& tbody': { display: 'block' },
      '& tbody tr': { display: 'block', border: 1, borderColor: 'divider', borderRadius: 1, mb: 1, px: 1.5, py: 0.5 },
      '& tbody td': {
        display: 'flex',
        // MUI reverses a right-aligned cell's row: the column's name first, on the left, in every line.
        flexDirection: 'row',
        justifyContent: 'space-between',
        alignItems: 'center',
        gap: 2,
        position: 'static',
        border: 0,
        px: 0,
        py: 0.5,
        textAlign: 'right',
        whiteSpace: 'normal',
        overflowWrap: 'anywhere',
      },
      '& tbody td::before': { color: 'text.secondary', textAlign: 'left', flexShrink: 0, maxWidth: '45%' },
    },
  }) as const;

/** A column's cellSx: on a phone the cell's card line starts with the column's (translated) name, which screen readers skip. */
export const cardLabel = (label: string) => () => ({ [PHONE]: { '&::before': { content: `${JSON.stringify(label)} / ""` } } });

/**
 * Whether the list shows the previous rows while it waits for another page, search or sort: react-admin keeps them
 * (react-query's placeholder) so the table does not jump. They are then dimmed and the table busy, so nobody reads
 * them as the new page's; a row is not clicked through while it waits.
 */
export function useListWaiting(): boolean {
  const { isPlaceholderData, isFetching } = useListContext();
  return !!isPlaceholderData && !!isFetching;
}

/** A waiting list's rows (see useListWaiting). */
export const WAITING_SX = { '& .RaDataTable-tbody': { opacity: 0.5, pointerEvents: 'none' } } as const;
