import { memo } from 'react';
import { MenuItem, TextField } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { LOCALES } from '../../i18n/i18nProvider';
import { headerFieldSx } from './headerFieldSx';

/** English / 日本語; react-admin keeps the choice in local storage. */
export const LanguageSelector = memo(function LanguageSelector() {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  return (
    <TextField
      select
      variant="outlined"
      size="small"
      label={translate('app.header.language')}
      value={locale}
      onChange={(event) => setLocale(event.target.value)}
      sx={{ ...headerFieldSx, minWidth: 0, flex: { xs: '0 0 104px', sm: '0 0 120px' } }}
    >
      {LOCALES.map(({ locale: value }) => (
        <MenuItem key={value} value={value} lang={value}>
          {translate(`app.language.${value}`)}
        </MenuItem>
      ))}
    </TextField>
  );
});
