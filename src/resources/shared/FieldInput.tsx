import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  ImageField,
  ImageInput,
  type ImageInputProps,
  useNotify,
  NumberInput,
  PasswordInput,
  SelectArrayInput,
  SelectInput,
  TextInput,
  useRecordContext,
  useResourceContext,
  useTranslateLabel,
  type Validator,
} from 'react-admin';
import { IMAGE_MAX_BYTES, IMAGE_MAX_MB } from '../../domain/images';
import { useWatch } from 'react-hook-form';
import type { FieldSpec } from '../../domain/fields';
import type { OfferedChoice } from '../types';
import { RichTextInput } from '../../components/RichTextInput';
import { useSelectOptions } from '../../components/useSelectOptions';
import { ColorInput } from './ColorInput';
import { useFieldChoices } from './useFieldChoices';

interface FieldInputProps {
  source: string;
  spec: FieldSpec;
  validate: Validator;
  /** Translated help under the input (e.g. 'blank keeps the current pincode'). */
  helperText?: string;
  /** A reference's choices that may be picked (the form's `offered`); the others show where the record has them. */
  pickable?: OfferedChoice;
}

/** Choices of a reference from the referenced resource's `<path>/lists`; by name, the text is the value. */
const ReferenceChoices = ({
  source,
  spec,
  validate,
  helperText,
  pickable,
}: FieldInputProps & { spec: Extract<FieldSpec, { reference: string }> }) => {
  const { data = [], isPending } = useSelectOptions(spec.reference);
  const record = useRecordContext();
  const getOptionDisabled = pickable ? (choice: { id: string | number }) => !pickable(choice.id, record) : undefined;
  const byName = spec.type === 'references' && spec.by === 'name';
  const sameAs = spec.type === 'reference' ? spec.sameAs : undefined;
  const sameAsValue: unknown = useWatch({ name: sameAs ?? source, disabled: !sameAs });
  // Before the other field is chosen, everything is offered (the form lists Location above Owner).
  const narrowed = sameAs && sameAsValue != null && sameAsValue !== '';
  const offered = narrowed ? data.filter((o) => o[sameAs] == null || o[sameAs] === sameAsValue) : data;
  const choices = offered.map((o) => ({ id: byName ? o.text : o.value, name: o.text }));
  // Not open on focus (react-admin's default): a failed submit focuses the first invalid input, and its list
  // would cover the form. A click or the arrow keys still open it.
  return spec.type === 'references' ? (
    <AutocompleteArrayInput
      source={source}
      choices={choices}
      isPending={isPending}
      validate={validate}
      helperText={helperText}
      openOnFocus={false}
      getOptionDisabled={getOptionDisabled}
    />
  ) : (
    <AutocompleteInput
      source={source}
      choices={choices}
      isPending={isPending}
      validate={validate}
      helperText={helperText}
      openOnFocus={false}
      getOptionDisabled={getOptionDisabled}
    />
  );
};

/** A fixed list (one value or several), its labels in the user's language. */
const ChoiceSelect = ({ source, spec, validate, helperText }: FieldInputProps & { spec: Extract<FieldSpec, { choices: unknown }> }) => {
  const choices = useFieldChoices(source, spec.choices);
  return spec.type === 'multichoice' ? (
    <SelectArrayInput source={source} validate={validate} helperText={helperText} choices={choices} translateChoice={false} />
  ) : (
    <SelectInput source={source} validate={validate} helperText={helperText} choices={choices} translateChoice={false} />
  );
};

/** What the drop zone (react-dropzone, under react-admin's input) hands over for the files it refused. */
type DropRejections = Parameters<NonNullable<NonNullable<ImageInputProps['options']>['onDropRejected']>>[0];

/**
 * An image upload. The record holds the stored image's URL; the preview wants `{src, title}` (a new file
 * arrives as `{rawFile, src, title}`), the title being the image's text alternative. react-admin labels the
 * drop zone with text, not a <label>: its file input is named by aria-label.
 */
const ImageUpload = ({ source, validate, helperText }: Omit<FieldInputProps, 'spec'>) => {
  const translateLabel = useTranslateLabel();
  const label = translateLabel({ source, resource: useResourceContext() });
  const preview = (value: unknown) => (typeof value === 'string' && value ? { src: value, title: label } : value);
  const notify = useNotify();
  // A file over the server's limit is refused here, before it is sent, in the server's own words.
  const refuse = (rejections: DropRejections) => {
    if (rejections.some((r) => r.errors.some((e) => e.code === 'file-too-large')))
      notify('app.validation.file_size', { type: 'error', messageArgs: { field: label, mb: IMAGE_MAX_MB } });
  };
  return (
    <ImageInput
      source={source}
      validate={validate}
      helperText={helperText}
      accept={{ 'image/*': [] }}
      maxSize={IMAGE_MAX_BYTES}
      options={{ onDropRejected: refuse }}
      format={preview}
      inputProps={{ 'aria-label': label }}
    >
      <ImageField source="src" title="title" />
    </ImageInput>
  );
};

/** The form input of one field spec; rich text is the lazily loaded editor. */
export const FieldInput = ({ source, spec, validate, helperText, pickable }: FieldInputProps) => {
  switch (spec.type) {
    case 'text':
      return (
        <TextInput
          source={source}
          validate={validate}
          helperText={helperText}
          type={spec.email ? 'email' : spec.url ? 'url' : 'text'}
          multiline={spec.multiline}
        />
      );
    case 'richtext':
      return <RichTextInput source={source} validate={validate} helperText={helperText} />;
    case 'secret':
      return <PasswordInput source={source} validate={validate} helperText={helperText} autoComplete="new-password" />;
    case 'color':
      return <ColorInput source={source} validate={validate} helperText={helperText} />;
    case 'choice':
    case 'multichoice':
      return <ChoiceSelect source={source} spec={spec} validate={validate} helperText={helperText} />;
    case 'number':
      return <NumberInput source={source} validate={validate} helperText={helperText} min={spec.min} max={spec.max} />;
    case 'reference':
    case 'references':
      return <ReferenceChoices source={source} spec={spec} validate={validate} pickable={pickable} />;
    case 'boolean':
      return (
        <BooleanInput
          source={source}
          validate={validate}
          helperText={helperText}
          format={(v: unknown) => v === true || v === 1 || v === '1'}
        />
      );
    case 'image':
      return <ImageUpload source={source} validate={validate} helperText={helperText} />;
    default: {
      const unknownType: never = spec;
      throw new Error(`No input for field type ${JSON.stringify(unknownType)}`);
    }
  }
};
