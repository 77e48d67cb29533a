import { useCallback, useLayoutEffect, useRef } from 'react';
import { Box } from '@mui/material';
import type { Validator } from 'react-admin';
import { useController } from 'react-hook-form';
import {
  AlignmentButtons,
  ClearButtons,
  ColorButtons,
  FormatButtons,
  LinkButtons,
  ListButtons,
  RichTextInput as RaRichTextInput,
  RichTextInputToolbar,
} from 'ra-input-rich-text';
import { RichTextLevelSelect } from './RichTextLevelSelect';

export interface RichTextEditorProps {
  source: string;
  validate?: Validator;
  /** i18n key or text; without it react-admin labels the input resources.<name>.fields.<source>. */
  label?: string;
  helperText?: string;
  /** Shown, not editable (and no toolbar): for a reader who may not change it. */
  readOnly?: boolean;
}

// The editable area, named as ra-input-rich-text styles it, so that these rules come after (and win over) its own.
const EDITOR = '.RaRichTextInput-editorContent .ProseMirror';

/** What an e-mail body needs: headings, emphasis, colour, alignment, lists, links. No images by URL. */
const EmailToolbar = () => (
  <RichTextInputToolbar size="small">
    <RichTextLevelSelect />
    <FormatButtons size="small" />
    <ColorButtons size="small" />
    <AlignmentButtons size="small" />
    <ListButtons size="small" />
    <LinkButtons size="small" />
    <ClearButtons size="small" />
  </RichTextInputToolbar>
);

/**
 * react-admin's tiptap RichTextInput with the e-mail toolbar. Two things it lacks are added through the
 * same form field: a red border once invalid, and a focus target so that a failed submit can
 * focus the editor when it is the first invalid input (react-hook-form focuses `field.ref`).
 */
export const RichTextEditor = ({ source, validate, label, helperText, readOnly = false }: RichTextEditorProps) => {
  const { field, fieldState } = useController({ name: source });
  const { ref } = field;
  const box = useRef<HTMLDivElement | null>(null);
  const focusTarget = useCallback(
    (element: HTMLDivElement | null) => {
      box.current = element;
      if (element) ref({ focus: () => element.querySelector<HTMLElement>('[contenteditable]')?.focus() });
    },
    [ref],
  );
  // ra-input-rich-text names the editor's wrapper <div> by the label, where a name is not allowed (axe:
  // aria-prohibited-attr); the editable area is what the label names, as a multi-line textbox.
  // tiptap mounts its editable area after the first render, so the names move when it appears.
  useLayoutEffect(() => {
    const root = box.current;
    if (!root) return;
    const nameEditable = () => {
      const wrapper = root.querySelector('.RaRichTextInput-editorContent');
      const editable = wrapper?.querySelector<HTMLElement>('[contenteditable]');
      const labelledBy = wrapper?.getAttribute('aria-labelledby');
      if (!wrapper || !editable || !labelledBy) return;
      wrapper.removeAttribute('aria-labelledby');
      editable.setAttribute('role', 'textbox');
      editable.setAttribute('aria-multiline', 'true');
      editable.setAttribute('aria-labelledby', labelledBy);
    };
    nameEditable();
    const observer = new MutationObserver(nameEditable);
    observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-labelledby'] });
    return () => observer.disconnect();
  }, []);
  return (
    <Box ref={focusTarget} sx={{ width: '100%' }}>
      <RaRichTextInput
        source={source}
        validate={validate}
        label={label}
        helperText={helperText}
        readOnly={readOnly}
        toolbar={readOnly ? <></> : <EmailToolbar />}
        sx={{
          [`& ${EDITOR}`]: { minHeight: 160, overflowWrap: 'anywhere' },
          ...(fieldState.invalid && {
            [`& ${EDITOR}, & ${EDITOR}:hover, & ${EDITOR}:focus`]: { borderColor: 'error.main', borderWidth: 2 },
          }),
        }}
      />
    </Box>
  );
};
