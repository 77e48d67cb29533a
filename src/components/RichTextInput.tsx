import { lazy, Suspense } from 'react';
import { Skeleton } from '@mui/material';
import type { RichTextEditorProps } from './RichTextEditor';
import { WhenNear } from './WhenNear';

// tiptap and its extensions are the heaviest widget of the forms: they load with the first editor that comes near
// the screen (the scan page's mail form is far below its first screen).
const RichTextEditor = lazy(async () => ({ default: (await import('./RichTextEditor')).RichTextEditor }));

/** The rich-text input of every `richtext` field, of the e-mail header and footer and of the scan page's mail. */
export const RichTextInput = (props: RichTextEditorProps) => {
  const placeholder = <Skeleton variant="rounded" height={220} sx={{ width: '100%', mb: 3 }} />;
  return (
    <WhenNear placeholder={placeholder}>
      <Suspense fallback={placeholder}>
        <RichTextEditor {...props} />
      </Suspense>
    </WhenNear>
  );
};
