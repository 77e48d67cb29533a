import { useState } from 'react';
import { Link } from '@mui/material';
import { useTranslate } from 'react-admin';
import { lazyComponent } from './lazyComponent';

// The dialog (and the sanitiser it shows the text with) loads on the first click, not with the frame.
const TermsTextDialog = lazyComponent(() => import('./TermsTextDialog'), 'TermsTextDialog');

/** A link-styled button that opens the full Terms and Conditions (`label`: its text, a translation key). */
export const TermsLink = ({ label }: { label: string }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Link
        component="button"
        type="button"
        variant="body2"
        aria-haspopup="dialog"
        onClick={() => {
          setOpen(true);
          setOpened(true);
        }}
      >
        {translate(label)}
      </Link>
      {opened && <TermsTextDialog open={open} onClose={() => setOpen(false)} />}
    </>
  );
};
