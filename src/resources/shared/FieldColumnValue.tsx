import {
  BooleanField,
  FunctionField,
  ImageField,
  NumberField,
  RichTextField,
  SelectField,
  TextField,
  useGetRecordRepresentation,
  useRecordContext,
  useResourceContext,
  type RaRecord,
} from 'react-admin';
import type { FieldSpec } from '../../domain/fields';
import { useSelectOptions } from '../../components/useSelectOptions';
import type { ColumnDisplay } from '../types';
import { useFieldChoices } from './useFieldChoices';

// HTML of any length in a table cell: at most a few lines, the rest cut off.
const htmlCellSx = {
  display: 'block',
  maxHeight: 96,
  maxWidth: 480,
  overflow: 'hidden',
  '& :is(p, h1, h2, h3, h4, h5, h6, ul, ol)': { my: 0, fontSize: 'inherit' },
};

/** A reference shown by its `<path>/lists` text; several are comma-joined (e.g. a user's roles). */
const ReferenceText = ({ source, spec }: { source: string; spec: Extract<FieldSpec, { reference: string }> }) => {
  const { data = [] } = useSelectOptions(spec.reference);
  const byName = spec.type === 'references' && spec.by === 'name';
  const text = (value: unknown) => (byName ? String(value) : (data.find((o) => String(o.value) === String(value))?.text ?? ''));
  return (
    <FunctionField
      source={source}
      render={(record: RaRecord) => {
        const value: unknown = record[source];
        return Array.isArray(value) ? value.map(text).join(', ') : value == null ? '' : text(value);
      }}
    />
  );
};

/** A 100 x 100 thumbnail, its text alternative the row's representation (a panel group's name). */
const ImageCell = ({ source }: { source: string }) => {
  const record = useRecordContext();
  const represent = useGetRecordRepresentation(useResourceContext());
  const name = record ? represent(record) : '';
  const alt = typeof name === 'string' || typeof name === 'number' ? String(name) : '';
  return (
    <ImageField source={source} title={alt} sx={{ '& .RaImageField-image': { width: 100, height: 100, m: 0, objectFit: 'contain' } }} />
  );
};

/** A fixed list's value (or several, comma-joined) by its label in the user's language. */
const ChoiceText = ({ source, spec }: { source: string; spec: Extract<FieldSpec, { choices: unknown }> }) => {
  const choices = useFieldChoices(source, spec.choices);
  if (spec.type === 'choice') return <SelectField source={source} choices={choices} translateChoice={false} />;
  return (
    <FunctionField
      source={source}
      render={(record: RaRecord) => {
        const value: unknown = record[source];
        return Array.isArray(value) ? value.map((id) => choices.find((c) => c.id === id)?.name ?? String(id)).join(', ') : '';
      }}
    />
  );
};

/** The read-only display of one field spec in a list cell, or the description's `display` for it; secrets are never shown. */
export const FieldColumnValue = ({ source, spec, display }: { source: string; spec: FieldSpec; display?: ColumnDisplay }) => {
  if (display === 'html' && spec.type !== 'secret') return <RichTextField source={source} sx={htmlCellSx} />;
  if (display && display !== 'html' && spec.type !== 'secret')
    return <FunctionField source={source} render={(record: RaRecord) => display(record[source])} />;
  switch (spec.type) {
    case 'choice':
    case 'multichoice':
      return <ChoiceText source={source} spec={spec} />;
    case 'number':
      return <NumberField source={source} />;
    case 'boolean':
      return <BooleanField source={source} looseValue />;
    case 'image':
      return <ImageCell source={source} />;
    case 'reference':
    case 'references':
      return <ReferenceText source={source} spec={spec} />;
    case 'richtext':
      return <RichTextField source={source} stripTags />;
    case 'secret':
      return null;
    case 'text':
    case 'color':
      return <TextField source={source} />;
    default: {
      const unknownType: never = spec;
      throw new Error(`No column for field type ${JSON.stringify(unknownType)}`);
    }
  }
};
