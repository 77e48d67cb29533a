import { DataTable, useDataTableRenderContext, useDataTableSortContext, type DataTableColumnProps } from 'react-admin';

/**
 * A DataTable column whose heading tells assistive technology how the list is sorted: the heading of the sorted
 * column carries `aria-sort` (MUI's `sortDirection`), which react-admin's heading shows only as an arrow.
 */
export function SortedCol<RecordType extends Record<string, unknown> = Record<string, unknown>>(props: DataTableColumnProps<RecordType>) {
  const context = useDataTableRenderContext();
  const sort = useDataTableSortContext();
  const sorted = context === 'header' && !props.disableSort && sort?.field !== undefined && sort.field === props.source;
  const Col = DataTable.Col<RecordType>;
  return <Col {...props} {...(sorted ? { sortDirection: sort.order === 'ASC' ? 'asc' : 'desc' } : {})} />;
}
