import { useEffect, useState } from 'react';
import { Autocomplete, CircularProgress, IconButton, TextField, Tooltip } from '@mui/material';
import TravelExploreIcon from '@mui/icons-material/TravelExplore';
import { HttpError, useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { lookupVehicle, plateOptions } from '../../domain/scan-view';
import { useNotifyError } from '../../components/useNotifyError';
import { InlineField, type InlineInputProps } from './InlineField';
import { useScanPage } from './context';
import { useSaveScan } from './useSaveScan';

/** The registration search waits 500 ms after the last keystroke. */
export const PLATE_SEARCH_DEBOUNCE_MS = 500;

/** The registration input with the plate autocomplete (`POST license-plates/search`, only with text). */
const PlateInput = ({ id, value, onChange, onSubmit, disabled }: InlineInputProps<string>) => {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [options, setOptions] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);
  const term = value.trim();
  useEffect(() => {
    if (!term) return undefined;
    let live = true;
    const timer = setTimeout(() => {
      setLoading(true);
      dataProvider
        .searchPlates(term)
        .then((reply) => live && setOptions(plateOptions(reply)))
        // A failed lookup only stops loading.
        .catch(() => live && setOptions([]))
        .finally(() => live && setLoading(false));
    }, PLATE_SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [dataProvider, term]);
  return (
    <Autocomplete
      freeSolo
      id={id}
      size="small"
      options={term ? options : []}
      filterOptions={(x) => x}
      inputValue={value}
      onInputChange={(_, v) => onChange(v.toUpperCase())}
      loading={loading}
      disabled={disabled}
      renderInput={(params) => (
        <TextField
          {...params}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !(term && options.length)) onSubmit();
          }}
        />
      )}
    />
  );
};

/** The registration, editable with the plate autocomplete, and the fetch button that fills the vehicle. */
export const RegistrationField = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const { scan } = useScanPage();
  const dataProvider = useDataProvider<AppDataProvider>();
  const save = useSaveScan();
  const [fetching, setFetching] = useState(false);
  const label = translate('app.scans.page.registration');
  const plate = scan.licensePlate ?? '';

  const fetchVehicle = async () => {
    setFetching(true);
    try {
      const reply = await dataProvider.fetchPlate(plate, scan.location_state);
      const vehicle = lookupVehicle(reply);
      if (!Object.keys(vehicle).length) {
        notify('app.scanPage.no_plate_match', { type: 'info' });
        return;
      }
      // A failed save has put the old values back and said why.
      await save(vehicle, label, vehicle, 'app.scanPage.fetched').catch(() => undefined);
    } catch (error) {
      // A provider that fails or times out (502/504) says so in the user's language, not as 'Server Error!'; nothing
      // changes. The server's message (which failure) goes to the console.
      const status: number = error instanceof HttpError ? (error as { status: number }).status : 0;
      if (status === 502 || status === 504) {
        console.warn((error as { body?: unknown }).body);
        notify(status === 504 ? 'app.scanPage.plate_timeout' : 'app.scanPage.plate_failed', { type: 'error' });
      } else notifyError(error);
    } finally {
      setFetching(false);
    }
  };

  return (
    <InlineField<string>
      name="licensePlate"
      label={label}
      display={plate}
      initial={plate}
      input={(p) => <PlateInput {...p} />}
      save={(v) => save({ licensePlate: v.trim() || null }, label)}
      actions={
        <Tooltip title={translate('app.scanPage.fetch_registration')}>
          <span>
            <IconButton
              size="small"
              aria-label={translate('app.scanPage.fetch_registration')}
              onClick={() => void fetchVehicle()}
              disabled={fetching || !plate}
            >
              {fetching ? <CircularProgress size={18} /> : <TravelExploreIcon fontSize="small" />}
            </IconButton>
          </span>
        </Tooltip>
      }
    />
  );
};
