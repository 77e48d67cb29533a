import { InputAdornment } from '@mui/material';
import { useFormContext, useWatch } from 'react-hook-form';
import { TextInput, useResourceContext, useTranslate, useTranslateLabel, type Validator } from 'react-admin';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The browser's own colour picker, kept in step with the hex text beside it. */
const Swatch = ({ source, label }: { source: string; label: string }) => {
  const value: unknown = useWatch({ name: source });
  const { setValue, formState } = useFormContext();
  const hex = typeof value === 'string' && HEX.test(value) ? value.toLowerCase() : '#000000';
  return (
    <InputAdornment position="start">
      <input
        type="color"
        value={hex}
        aria-label={label}
        onChange={(event) => setValue(source, event.target.value, { shouldDirty: true, shouldValidate: formState.isSubmitted })}
        style={{ width: 32, height: 32, padding: 0, border: 'none', background: 'none', cursor: 'pointer' }}
      />
    </InputAdornment>
  );
};

/** A colour as '#rrggbb': a native picker (no library to download) and the hex text, both editing the same value. */
export const ColorInput = ({ source, validate, helperText }: { source: string; validate?: Validator; helperText?: string }) => {
  const translate = useTranslate();
  const translateLabel = useTranslateLabel();
  const resource = useResourceContext();
  const translated = translateLabel({ source, resource });
  // Without a label prop, react-admin translates the source: a string.
  const label = typeof translated === 'string' ? translated : source;
  return (
    <TextInput
      source={source}
      validate={validate}
      helperText={helperText}
      slotProps={{ input: { startAdornment: <Swatch source={source} label={translate('app.inputs.pick_color', { field: label })} /> } }}
    />
  );
};
