import { useEffect, useId, useMemo, useState } from 'react';
import { Autocomplete, Box, Button, Chip, IconButton, MenuItem, TextField, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import { useTranslate } from 'react-admin';
import {
  addProductRow,
  chooseProduct,
  isImageFile,
  normaliseParts,
  partId,
  productPriceError,
  removeProductRow,
  setProductPrice,
  type ProductOption,
  type ProductRow,
} from './quoteForm';
import { useAutocompleteTexts } from '../../components/useAutocompleteTexts';
import { IMAGE_MAX_BYTES } from '../../domain/images';

const T = 'app.quotes.generation';

interface ProductsEditorProps {
  rows: ProductRow[];
  options: ProductOption[];
  onChange: (rows: ProductRow[]) => void;
  /** The duplicate's message is shown (as an error toast) by the page. */
  onDuplicate: () => void;
  /** After a refused save: prices in error show under their inputs. */
  showErrors: boolean;
  /** The read-only quote view: the rows shown, not changed (docs/ARCHITECTURE.md, "Access model"). */
  readOnly?: boolean;
}

/** Add Products: a product per row, never twice; price a number ≥ 0; at least one row (no delete on the last). */
export const ProductsEditor = ({ rows, options, onChange, onDuplicate, showErrors, readOnly = false }: ProductsEditorProps) => {
  const translate = useTranslate();
  const t = (key: string) => translate(`${T}.${key}`);
  if (options.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {t('no_products')}
      </Typography>
    );
  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      {rows.map((row, index) => {
        const error = showErrors ? productPriceError(row) : null;
        return (
          <Box
            key={index}
            sx={{
              display: 'grid',
              gap: 1,
              gridTemplateColumns: { xs: '1fr auto', sm: 'minmax(0, 2fr) minmax(0, 1fr) auto' },
              alignItems: 'start',
            }}
          >
            <TextField
              select
              size="small"
              label={t('product')}
              value={row.value}
              disabled={readOnly}
              onChange={(event) => {
                const option = options.find((o) => o.value === event.target.value);
                if (!option) return;
                const result = chooseProduct(rows, index, option);
                if (result.error) onDuplicate();
                else onChange(result.rows);
              }}
              sx={{ gridColumn: { xs: '1 / 2', sm: 'auto' } }}
            >
              {options.map((o) => (
                <MenuItem key={o.value} value={o.value}>
                  {o.text}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              size="small"
              type="number"
              label={t('price')}
              value={row.price}
              disabled={readOnly || !row.value}
              onChange={(event) => onChange(setProductPrice(rows, index, event.target.value))}
              error={error !== null}
              helperText={error ? t(error === 'required' ? 'price_required' : 'price_min') : undefined}
              slotProps={{ htmlInput: { min: 0, step: '0.01', inputMode: 'decimal' } }}
              sx={{ gridColumn: { xs: '1 / 2', sm: 'auto' }, gridRow: { xs: 'auto', sm: 'auto' } }}
            />
            <Box sx={{ gridColumn: { xs: '2 / 3', sm: 'auto' }, gridRow: { xs: '1 / 2', sm: 'auto' }, minWidth: 40 }}>
              {rows.length > 1 && !readOnly && (
                <Tooltip title={t('remove_product')}>
                  <IconButton aria-label={t('remove_product')} onClick={() => onChange(removeProductRow(rows, index))}>
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </Box>
          </Box>
        );
      })}
      {!readOnly && (
        <Box>
          <Button size="small" startIcon={<AddIcon />} onClick={() => onChange(addProductRow(rows))}>
            {t('add_product')}
          </Button>
        </Box>
      )}
    </Box>
  );
};

/** Add Parts: pick the client's parts or type a new one (trimmed, empty ignored, one per lower-cased id). */
export const PartsEditor = ({
  value,
  options,
  onChange,
  readOnly = false,
}: {
  value: string[];
  options: string[];
  onChange: (parts: string[]) => void;
  /** The read-only quote view: the parts shown, not changed. */
  readOnly?: boolean;
}) => {
  const translate = useTranslate();
  const autocompleteTexts = useAutocompleteTexts();
  return (
    <Autocomplete
      {...autocompleteTexts}
      multiple
      disabled={readOnly}
      freeSolo
      autoSelect
      options={options}
      value={value}
      filterSelectedOptions
      isOptionEqualToValue={(option, v) => partId(option) === partId(v)}
      onChange={(_, parts) => onChange(normaliseParts(parts))}
      renderValue={(parts, getItemProps) =>
        parts.map((part, index) => {
          const { key, ...props } = getItemProps({ index });
          return <Chip key={key} size="small" label={part} {...props} />;
        })
      }
      renderInput={(params) => (
        <TextField {...params} size="small" label={translate(`${T}.parts`)} placeholder={translate(`${T}.parts_placeholder`)} />
      )}
    />
  );
};

interface VehiclePhotoProps {
  /** The saved quote's photo URL. */
  savedUrl: string | null;
  file: File | null;
  busy: boolean;
  onFile: (file: File | null) => void;
  /** Removes the saved photo (PUT quotes/{id}/delete_vehicle_photo). */
  onDeleteSaved: () => void;
  /** A file that is not an image, or larger than the server takes (IMAGE_MAX_BYTES): refused before it is sent. */
  onRejected: (reason: 'type' | 'size') => void;
  /** The read-only quote view: the photo shown, neither added nor removed. */
  readOnly?: boolean;
}

/** Add Vehicle Photo: image files only; the chosen or saved photo shows with a delete button. */
export const VehiclePhoto = ({ savedUrl, file, busy, onFile, onDeleteSaved, onRejected, readOnly = false }: VehiclePhotoProps) => {
  const translate = useTranslate();
  const t = (key: string) => translate(`${T}.${key}`);
  const inputId = useId();
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  const [inputKey, setInputKey] = useState(0);
  const shown = preview ?? savedUrl;
  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      {readOnly && !shown && (
        <Typography variant="body2" color="text.secondary">
          {t('no_photo')}
        </Typography>
      )}
      {!readOnly && (
        <Box>
          <input
            key={inputKey}
            id={inputId}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            hidden
            onChange={(event) => {
              const chosen = event.target.files?.[0] ?? null;
              setInputKey((k) => k + 1);
              if (!chosen) return;
              if (!isImageFile(chosen)) onRejected('type');
              else if (chosen.size > IMAGE_MAX_BYTES) onRejected('size');
              else onFile(chosen);
            }}
          />
          <Button component="label" htmlFor={inputId} variant="outlined" size="small" startIcon={<PhotoCameraIcon />} disabled={busy}>
            {t('add_photo')}
          </Button>
        </Box>
      )}
      {shown && (
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
          <Box
            component="img"
            src={shown}
            alt={t('photo_alt')}
            sx={{ maxWidth: '100%', width: 240, maxHeight: 180, objectFit: 'contain', borderRadius: 1, border: 1, borderColor: 'divider' }}
          />
          {!readOnly && (
            <Tooltip title={t('delete_photo')}>
              <span>
                <IconButton
                  color="error"
                  aria-label={t('delete_photo')}
                  disabled={busy}
                  onClick={() => (file ? onFile(null) : onDeleteSaved())}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          )}
        </Box>
      )}
    </Box>
  );
};
