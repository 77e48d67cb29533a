import { useState } from 'react';
import { IconButton, Menu, MenuItem, Tooltip } from '@mui/material';
import SortIcon from '@mui/icons-material/Sort';
import { type SortPayload, useListSortContext, useTranslate } from 'react-admin';

/**
 * A phone's sort menu, where each row is a card and the table's sorting headings are hidden: one entry per sortable
 * column, named by its heading as the table names it, ascending first and then the other way.
 */
export const PhoneSortMenu = ({
  columns,
  ...own
}: {
  columns: readonly { field: string; label: string }[];
  /** A list that sorts its page itself (the scans and the quotes): its order, else the list's. */
  sort?: SortPayload;
  setSort?: (sort: SortPayload) => void;
}) => {
  const translate = useTranslate();
  const list = useListSortContext();
  const { sort, setSort } = own.sort && own.setSort ? { sort: own.sort, setSort: own.setSort } : list;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = columns.find((c) => c.field === sort.field);
  const order = (field: string) => (field === sort.field && sort.order === 'ASC' ? 'DESC' : 'ASC');
  // Ordered by a column: 'Sort by name ascending'; by the server's own order (a panel's place): just 'Sort'.
  const label = current
    ? translate('ra.sort.sort_by', {
        field: current.label,
        field_lower_first: current.label.charAt(0).toLowerCase() + current.label.slice(1),
        order: translate(`ra.sort.${sort.order}`),
      })
    : translate('app.crud.sort');
  return (
    <>
      <Tooltip title={label}>
        <IconButton aria-label={label} aria-haspopup="menu" color="primary" size="large" onClick={(e) => setAnchor(e.currentTarget)}>
          <SortIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {columns.map((c) => (
          <MenuItem
            key={c.field}
            selected={c.field === sort.field}
            onClick={() => {
              setSort({ field: c.field, order: order(c.field) });
              setAnchor(null);
            }}
          >
            {c.label} {translate(`ra.sort.${order(c.field)}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
