import { memo, useLayoutEffect, useMemo } from 'react';
import {
  Box,
  FormHelperText,
  InputBase,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useFormContext, useWatch } from 'react-hook-form';
import { useInput, useTranslate, ValidationError, type Validator } from 'react-admin';
import { fieldValidator } from '../../components/fieldValidation';
import { useSelectOptions } from '../../components/useSelectOptions';
import { dentPriceFields, scratchPriceFields } from '../../domain/client-fields';
import type { FieldSpec } from '../../domain/fields';
import type { FormScreenMode } from '../types';

export type MatrixKind = 'dent' | 'scratch';

/** Columns of each matrix, and the unit each shows: money in the client's currency, or a percent. */
const MATRICES: Record<MatrixKind, { columns: Record<string, FieldSpec>; percent: string[] }> = {
  dent: { columns: dentPriceFields, percent: ['aluminium'] },
  scratch: { columns: scratchPriceFields, percent: [] },
};

interface Column {
  name: string;
  label: string;
  validate: Validator;
}

const toNumber = (value: unknown) => (value === '' || value === null || value === undefined ? null : Number(value));
const show = (value: unknown) => (typeof value === 'string' || (typeof value === 'number' && !Number.isNaN(value)) ? String(value) : '');

/**
 * One price: a bare number input registered at `prices.<kind>.<partId>.<column>`. It subscribes only to
 * its own value, so typing re-renders this cell and the grid's frame, not the other cells (the rows are memoised).
 */
const PriceCell = ({ source, column, part }: { source: string; column: Column; part: string }) => {
  const { id, field, fieldState } = useInput({ source, validate: column.validate, parse: toNumber, format: show });
  const error = fieldState.error?.message;
  const { ref, ...input } = field;
  return (
    <TableCell sx={{ px: 0.5, py: 0.5, verticalAlign: 'top' }}>
      <InputBase
        {...input}
        id={id}
        inputRef={ref}
        type="number"
        error={!!error}
        inputProps={{
          min: 0,
          step: 'any',
          inputMode: 'decimal',
          'aria-label': `${part} ${column.label}`,
          'aria-invalid': !!error,
          'aria-describedby': error ? `${id}-error` : undefined,
        }}
        sx={{
          width: 88,
          border: 1,
          borderColor: error ? 'error.main' : 'divider',
          borderRadius: 1,
          px: 0.75,
          fontSize: 14,
          '&.Mui-focused': {
            borderColor: error ? 'error.main' : 'primary.main',
            boxShadow: (t) => `0 0 0 1px ${error ? t.palette.error.main : t.palette.primary.main}`,
          },
          '& input': { py: 0.5, textAlign: 'right' },
        }}
      />
      {error && (
        <FormHelperText id={`${id}-error`} error sx={{ mx: 0, maxWidth: 88, lineHeight: 1.2 }}>
          <ValidationError error={error} />
        </FormHelperText>
      )}
    </TableCell>
  );
};

const stickySx = {
  position: 'sticky',
  left: 0,
  bgcolor: 'background.paper',
  zIndex: 1,
  borderRight: 1,
  borderRightColor: 'divider',
} as const;

/** A part's row; memoised so that the grid re-rendering (currency, parts arriving) does not redo 300 cells needlessly. */
const PriceRow = memo(function PriceRow({
  kind,
  partId,
  part,
  columns,
}: {
  kind: MatrixKind;
  partId: string;
  part: string;
  columns: Column[];
}) {
  return (
    <TableRow hover>
      <TableCell component="th" scope="row" sx={{ ...stickySx, minWidth: 120, maxWidth: 160, fontWeight: 500 }}>
        {part}
      </TableCell>
      {columns.map((column) => (
        <PriceCell key={column.name} source={`prices.${kind}.${partId}.${column.name}`} column={column} part={part} />
      ))}
    </TableRow>
  );
});

/** The column headers, with the unit: % for a percentage, otherwise the client's currency as the form has it. */
const HeaderRow = ({ kind, columns }: { kind: MatrixKind; columns: Column[] }) => {
  const translate = useTranslate();
  const currency: unknown = useWatch({ name: 'currency' });
  const symbol = typeof currency === 'string' && currency ? currency : '$';
  return (
    <TableRow>
      <TableCell sx={{ ...stickySx, zIndex: 3 }}>{translate('resources.clients.matrix.part')}</TableCell>
      {columns.map((column) => (
        <TableCell key={column.name} sx={{ px: 0.5, whiteSpace: 'nowrap' }}>
          {column.label} ({MATRICES[kind].percent.includes(column.name) ? '%' : symbol})
        </TableCell>
      ))}
    </TableRow>
  );
};

const useColumns = (kind: MatrixKind): Column[] => {
  const translate = useTranslate();
  return useMemo(
    () =>
      Object.entries(MATRICES[kind].columns).map(([name, spec]) => {
        const label = translate(`resources.clients.matrix.${kind}.${name}`, { _: spec.label });
        return { name, label, validate: fieldValidator(spec, label) };
      }),
    [kind, translate],
  );
};

type Rows = Record<string, Record<string, unknown> | undefined>;

/** Whether `rows` lacks a row of a part or a cell of a column. */
const lacksCells = (rows: unknown, partIds: string[], columns: Column[]) =>
  partIds.some((id) => columns.some((c) => ((rows ?? {}) as Rows)[id]?.[c.name] === undefined));

/** `rows` with a 0 in every cell it lacks (a registered input without a value holds undefined): a row per part. */
const withZeros = (rows: unknown, partIds: string[], columns: Column[]) => {
  const given = (rows ?? {}) as Rows;
  return {
    ...given,
    ...Object.fromEntries(
      partIds.map((id) => [id, { ...given[id], ...Object.fromEntries(columns.map((c) => [c.name, given[id]?.[c.name] ?? 0])) }]),
    ),
  };
};

/**
 * Puts a 0 into every cell the record, the create defaults or a reset leave out, in the form's defaults (so a zero is
 * not a change) and in its values, before the screen is painted. One write per matrix: a cell that named 0 as its
 * input's default would have react-admin reset that one field as it mounts, and each reset re-checks every subscriber of
 * the form (300 cells took over a second on a desktop).
 */
function useZeroFilledPrices(kind: MatrixKind, partIds: string[] | undefined, columns: Column[]) {
  const { control, getValues, resetField, setValue } = useFormContext();
  const path = `prices.${kind}`;
  const values: unknown = useWatch({ name: path });
  useLayoutEffect(() => {
    if (!partIds) return;
    // The defaults as they are now (formState's copy follows them only on the form's next render).
    const defaults = ((control._defaultValues.prices ?? {}) as Record<string, unknown>)[kind];
    if (!lacksCells(values, partIds, columns) && !lacksCells(defaults, partIds, columns)) return;
    const filledDefaults = withZeros(defaults, partIds, columns);
    const filledValues = withZeros(getValues(path), partIds, columns);
    resetField(path, { defaultValue: filledDefaults, keepDirty: true, keepError: true, keepTouched: true });
    // resetField sets the values to the defaults as well: what was typed is put back after, still a change. Each write
    // tells every input once per cell, so it is made only when something differs.
    if (JSON.stringify(filledValues) !== JSON.stringify(filledDefaults)) setValue(path, filledValues);
  }, [kind, path, values, partIds, columns, control, getValues, resetField, setValue]);
}

/** One editable price grid: a row per part, a column per price; scrolls sideways with the part names kept in view. */
export const PriceMatrix = ({ kind }: { kind: MatrixKind }) => {
  const translate = useTranslate();
  const columns = useColumns(kind);
  const { data: parts, isPending } = useSelectOptions('parts');
  const partIds = useMemo(() => parts?.map((p) => String(p.value)), [parts]);
  useZeroFilledPrices(kind, partIds, columns);
  const titleId = `price-matrix-${kind}`;
  return (
    <Box component="section" aria-labelledby={titleId} sx={{ width: '100%', mt: 2 }}>
      <Typography id={titleId} variant="subtitle1" component="h2" gutterBottom>
        {translate(`resources.clients.matrix.${kind}_title`)}
      </Typography>
      {isPending ? (
        <Skeleton variant="rectangular" height={160} />
      ) : !parts?.length ? (
        <Typography variant="body2" color="text.secondary">
          {translate('resources.clients.matrix.no_parts')}
        </Typography>
      ) : (
        <TableContainer sx={{ maxHeight: 520, border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Table size="small" stickyHeader aria-labelledby={titleId}>
            <TableHead>
              <HeaderRow kind={kind} columns={columns} />
            </TableHead>
            <TableBody>
              {parts.map((p) => (
                <PriceRow key={String(p.value)} kind={kind} partId={String(p.value)} part={p.text} columns={columns} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
};

/**
 * The client form's own component: the dent and scratch price matrices, saved with the client
 * as `prices.dent[partId]` and `prices.scratch[partId]`. Every part has a row; a missing price starts at 0,
 * as the server takes a cell left out of a row.
 */
export const PriceMatrices = (_: { mode: FormScreenMode }) => (
  <Box sx={{ width: '100%' }}>
    <PriceMatrix kind="dent" />
    <PriceMatrix kind="scratch" />
  </Box>
);
