import { useEffect, useRef, useState } from 'react';
import { InputAdornment, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { SEARCH_DEBOUNCE_MS } from '../../config';

interface SearchBoxProps {
  value: string;
  placeholder: string;
  onSearch: (q: string) => void;
}

/** The list search: trimmed, debounced 500 ms; an outside change (Reset) shows through. */
export const SearchBox = ({ value, placeholder, onSearch }: SearchBoxProps) => {
  const [text, setText] = useState(value);
  const latest = useRef(onSearch);
  useEffect(() => {
    latest.current = onSearch;
  });
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText((current) => (current.trim() === value.trim() ? current : value));
  }
  useEffect(() => {
    if (text.trim() === value.trim()) return undefined;
    const timer = setTimeout(() => latest.current(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <TextField
      size="small"
      type="search"
      hiddenLabel
      value={text}
      onChange={(event) => setText(event.target.value)}
      placeholder={placeholder}
      sx={{ flex: { xs: '1 1 100%', sm: '0 1 320px' } }}
      slotProps={{
        htmlInput: { 'aria-label': placeholder },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
};
