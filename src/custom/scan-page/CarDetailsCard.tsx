import { MenuItem, TextField } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { useSelectOptions } from '../../components/useSelectOptions';
import { AU_STATES } from '../../domain/locations';
import { formatValuation } from '../../domain/scan-view';
import { parseValuationText, valuationInputText } from '../../domain/valuation';
import { InlineField, type InlineInputProps } from './InlineField';
import { NewSince } from './NewSince';
import { RegistrationField } from './RegistrationField';
import { Section } from './Section';
import { useScanPage } from './context';
import { useSaveScan } from './useSaveScan';

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

const TextInput = ({ id, value, onChange, onSubmit, disabled }: InlineInputProps<string>) => (
  <TextField
    id={id}
    size="small"
    fullWidth
    value={value}
    disabled={disabled}
    onChange={(e) => onChange(e.target.value)}
    onKeyDown={(e) => {
      if (e.key === 'Enter') onSubmit();
    }}
  />
);

type TextKey = 'make' | 'model' | 'carColor' | 'body_type';

/** The right column: Car Details, every vehicle field editable inline. */
/** A select in an inline field: an empty choice first (its label), then the options. */
const SelectInput = ({ p, empty, options }: { p: InlineInputProps<string>; empty: string; options: { value: string; text: string }[] }) => (
  <TextField id={p.id} select size="small" fullWidth value={p.value} disabled={p.disabled} onChange={(e) => p.onChange(e.target.value)}>
    <MenuItem value="">{empty}</MenuItem>
    {options.map((o) => (
      <MenuItem key={o.value} value={o.value}>
        {o.text}
      </MenuItem>
    ))}
  </TextField>
);

/** What the valuation input takes: digits, thousands commas and a decimal point (its cents are rounded to whole dollars). */
const VALUATION_CHARACTERS = /^[\d,.]*$/;

/**
 * The valuation input: only digits, commas and a decimal point get in. A keystroke or paste holding anything else is
 * refused whole, with a note under the input, never stripped: '15k' or '-500' with characters dropped would be another
 * amount. What gets in stays as typed; leaving the input shows the whole dollars that will be saved, cents rounded half
 * up.
 */
const ValuationInput = (p: InlineInputProps<string>) => {
  const translate = useTranslate();
  return (
    <TextField
      id={p.id}
      size="small"
      fullWidth
      value={p.value}
      disabled={p.disabled}
      error={p.error !== null}
      slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-describedby': p.describedBy } }}
      onChange={(e) => {
        const ok = VALUATION_CHARACTERS.test(e.target.value);
        p.onNote(ok ? null : translate('app.scanPage.valuation_characters'));
        if (ok) p.onChange(e.target.value);
      }}
      onBlur={() => {
        const read = parseValuationText(p.value);
        if (read.ok && valuationInputText(read.value) !== p.value) p.onChange(valuationInputText(read.value));
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') p.onSubmit();
      }}
    />
  );
};

export const CarDetailsCard = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { scan, agentViewer } = useScanPage();
  const save = useSaveScan();
  const clients = useSelectOptions('clients');
  const label = (k: string) => translate(`app.scans.page.${k}`);
  const valuationRefused = (v: string) => {
    const read = parseValuationText(v);
    return read.ok ? null : translate(read.error === 'max' ? 'app.scanPage.valuation_max' : 'app.scanPage.valuation_invalid');
  };

  const textField = (key: TextKey, labelKey: string) => (
    <InlineField<string>
      name={key}
      label={label(labelKey)}
      display={text(scan[key])}
      initial={text(scan[key])}
      input={(p) => <TextInput {...p} />}
      save={(v) => save({ [key]: v.trim() || null }, label(labelKey))}
    />
  );

  return (
    <Section id="car-details" title={label('car_details')}>
      <NewSince scanId={scan.id} />
      <RegistrationField />
      {textField('make', 'make')}
      {textField('model', 'model')}
      {textField('carColor', 'car_color')}
      {textField('body_type', 'body_type')}
      {/* The agent viewer has no valuation row. */}
      {!agentViewer && (
        <InlineField<string>
          name="valuation"
          label={label('valuation')}
          display={formatValuation(scan.valuation, locale)}
          initial={valuationInputText(scan.valuation)}
          validate={valuationRefused}
          input={(p) => <ValuationInput {...p} />}
          save={(v) => {
            const read = parseValuationText(v);
            // `validate` has refused any other text; nothing is saved for one that slips through.
            return read.ok ? save({ valuation: read.value }, label('valuation')) : Promise.reject(new Error(read.message));
          }}
        />
      )}
      <InlineField<string>
        name="location_state"
        label={label('location_state')}
        display={text(scan.location_state)}
        initial={text(scan.location_state)}
        input={(p) => (
          <SelectInput
            p={p}
            empty={translate('app.scanPage.select_state')}
            options={AU_STATES.map((st) => ({ value: st.id, text: st.id }))}
          />
        )}
        save={(v) => save({ location_state: v || null }, label('location_state'))}
      />
      <InlineField<string>
        name="client_id"
        label={label('client')}
        display={text(scan.client_name)}
        initial={scan.client_id === null ? '' : String(scan.client_id)}
        input={(p) => (
          <SelectInput
            p={p}
            empty={translate('app.scanPage.select_client')}
            options={(clients.data ?? []).map((c) => ({ value: String(c.value), text: c.text }))}
          />
        )}
        save={(v) => {
          const client = (clients.data ?? []).find((c) => String(c.value) === v);
          const client_id = v === '' ? null : Number(v);
          // The client's id and name change at once and go back on failure.
          return save({ client_id, client_name: client?.text ?? null }, label('client'), { client_id, client_name: client?.text ?? null });
        }}
      />
    </Section>
  );
};
