import { lazy, Suspense } from 'react';
import { Skeleton } from '@mui/material';
import type { RichTextEditorProps } from './RichTextEditor';

// tiptap and its extensions are the heaviest widget of the forms: they load with the first editor shown.
const RichTextEditor = lazy(async () => ({ default: (await import('./RichTextEditor')).RichTextEditor }));

/** The rich-text input of every `richtext` field and of the e-mail header and footer. */
export const RichTextInput = (props: RichTextEditorProps) => (
  <Suspense fallback={<Skeleton variant="rounded" height={220} sx={{ width: '100%', mb: 3 }} />}>
    <RichTextEditor {...props} />
  </Suspense>
);
