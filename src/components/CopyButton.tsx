import type { Ref } from 'react';
import { Button } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useTranslate } from 'react-admin';
import { useCopyToClipboard } from './useCopyToClipboard';

/** Copies `text`; its label reads 'Copied!' for 5 seconds afterwards. */
export const CopyButton = ({ text, label, ref }: { text: string; label?: string; ref?: Ref<HTMLButtonElement> }) => {
  const translate = useTranslate();
  const { copy, copied } = useCopyToClipboard();
  return (
    <Button
      ref={ref}
      type="button"
      size="small"
      variant={copied ? 'text' : 'outlined'}
      color={copied ? 'success' : 'primary'}
      startIcon={copied ? <CheckIcon /> : <ContentCopyIcon />}
      onClick={() => void copy(text).catch((error: unknown) => console.error('Copy failed', error))}
      aria-live="polite"
      sx={{ flexShrink: 0, textTransform: 'none' }}
    >
      {copied ? translate('app.copy.copied') : (label ?? translate('app.copy.copy'))}
    </Button>
  );
};
