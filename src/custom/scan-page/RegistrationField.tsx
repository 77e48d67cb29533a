import { useEffect, useState } from 'react';
import {
  Autocomplete,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  Link,
  TextField,
  Tooltip,
} from '@mui/material';
import TravelExploreIcon from '@mui/icons-material/TravelExplore';
import { useAutocompleteTexts } from '../../components/useAutocompleteTexts';
import { HttpError, LinkBase, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { formatValuation, lookupVehicle, plateOptions } from '../../domain/scan-view';
import { useNotifyError } from '../../components/useNotifyError';
import { InlineField, type InlineInputProps } from './InlineField';
import { useScanPage, type Scan } from './context';
import { useSaveScan } from './useSaveScan';

/** The registration search waits 500 ms after the last keystroke. */
export const PLATE_SEARCH_DEBOUNCE_MS = 500;

/** The registration input with the plate autocomplete (`POST license-plates/search`, only with text). */
const PlateInput = ({ id, value, onChange, onSubmit, disabled }: InlineInputProps<string>) => {
  const dataProvider = useDataProvider<AppDataProvider>();
  const autocompleteTexts = useAutocompleteTexts();
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
      {...autocompleteTexts}
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

type Vehicle = ReturnType<typeof lookupVehicle>;

/** The scan page's label key of each field the lookup fills, in the order the card shows them. */
const VEHICLE_LABELS: Record<keyof Vehicle, string> = {
  make: 'make',
  model: 'model',
  carColor: 'car_color',
  body_type: 'body_type',
  valuation: 'valuation',
};

/** What the lookup would change: the fields whose value differs from the scan's (blank counts as unset). */
function vehicleChanges(scan: Scan, vehicle: Vehicle): Vehicle {
  const same = (a: string | number | null | undefined, b: string | number | undefined) => String(a ?? '').trim() === String(b ?? '').trim();
  return Object.fromEntries(Object.entries(vehicle).filter(([k, v]) => !same(scan[k as keyof Vehicle], v)));
}

/** The lookup's changes, each 'field: current → new', to apply or keep; nothing changes until applied. */
const VehicleChangesDialog = ({
  plate,
  changes,
  onApply,
  onKeep,
}: {
  plate: string;
  changes: Vehicle | null;
  onApply: (changes: Vehicle) => void;
  onKeep: () => void;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { scan } = useScanPage();
  const shown = (key: keyof Vehicle, v: string | number | null | undefined) => {
    const text = key === 'valuation' ? formatValuation(v, locale) : String(v ?? '').trim();
    return text || translate('app.scans.page.not_set');
  };
  return (
    <Dialog open={changes !== null} onClose={onKeep} aria-labelledby="vehicle-changes-title" aria-describedby="vehicle-changes-intro">
      <DialogTitle id="vehicle-changes-title">{translate('app.safe_edits.plate_title', { plate })}</DialogTitle>
      <DialogContent>
        <DialogContentText id="vehicle-changes-intro">{translate('app.safe_edits.plate_intro')}</DialogContentText>
        <ul>
          {(Object.keys(VEHICLE_LABELS) as (keyof Vehicle)[])
            .filter((key) => changes && key in changes)
            .map((key) => (
              <li key={key}>
                {translate('app.safe_edits.plate_change', {
                  field: translate(`app.scans.page.${VEHICLE_LABELS[key]}`),
                  from: shown(key, scan[key]),
                  to: shown(key, changes?.[key]),
                })}
              </li>
            ))}
        </ul>
      </DialogContent>
      <DialogActions>
        <Button onClick={onKeep}>{translate('app.safe_edits.plate_keep')}</Button>
        <Button variant="contained" onClick={() => changes && onApply(changes)}>
          {translate('app.safe_edits.plate_accept')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * The registration, editable with the plate autocomplete, and the fetch button that looks the vehicle up and offers
 * what it would change.
 */
export const RegistrationField = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const { scan } = useScanPage();
  const dataProvider = useDataProvider<AppDataProvider>();
  const save = useSaveScan();
  const [fetching, setFetching] = useState(false);
  const [changes, setChanges] = useState<Vehicle | null>(null);
  const label = translate('app.scans.page.registration');
  const plate = scan.licensePlate ?? '';

  const apply = (accepted: Vehicle) => {
    setChanges(null);
    // A failed save has put the old values back and said why.
    void save(accepted, label, accepted, 'app.scanPage.fetched').catch(() => undefined);
  };

  const fetchVehicle = async () => {
    setFetching(true);
    try {
      const reply = await dataProvider.fetchPlate(plate, scan.location_state);
      const vehicle = lookupVehicle(reply);
      if (!Object.keys(vehicle).length) {
        notify('app.scanPage.no_plate_match', { type: 'info' });
        return;
      }
      const found = vehicleChanges(scan, vehicle);
      if (!Object.keys(found).length) notify('app.safe_edits.plate_same', { type: 'info' });
      else setChanges(found);
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
    <>
      <InlineField<string>
        name="licensePlate"
        label={label}
        display={
          // The registration leads to the vehicle's history (every scan of this car the user may see).
          plate && scan.vehicle_id ? (
            <Link component={LinkBase} to={`/vehicles/${scan.vehicle_id}`} underline="hover" title={translate('app.scanPage.vehicle_link')}>
              {plate}
            </Link>
          ) : (
            plate
          )
        }
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
      <VehicleChangesDialog plate={plate} changes={changes} onApply={apply} onKeep={() => setChanges(null)} />
    </>
  );
};
