import { Box, Chip, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { TEMPLATE_MERGE_FIELDS } from '../../domain/merge-fields';

/** What tiptap hangs on its editable element: the editor, enough of it to insert text at the caret. */
type EditableWithEditor = HTMLElement & {
  editor?: { chain: () => { focus: () => { insertContent: (s: string) => { run: () => boolean } } } };
};

/**
 * The merge fields a template may use (`src/domain/merge-fields.ts`, also served by `GET merge-fields`), each a chip
 * that inserts `{{name}}` into the body where the caret was (without the editor at hand, at the end), with what it holds
 * and the mails that fill it.
 */
export const MergeFieldList = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { getValues, setValue } = useFormContext();
  const insert = (name: string) => {
    const placeholder = `{{${name}}}`;
    const editable = document.querySelector<EditableWithEditor>('.ra-input-templateBody [contenteditable]');
    if (editable?.editor) {
      editable.editor.chain().focus().insertContent(placeholder).run();
      return;
    }
    const body: unknown = getValues('templateBody');
    setValue('templateBody', `${typeof body === 'string' ? body : ''}<p>${placeholder}</p>`, { shouldDirty: true });
  };
  return (
    <Box component="section" aria-labelledby="merge-fields-title" sx={{ mt: 1, mb: 2, width: '100%' }}>
      <Typography id="merge-fields-title" variant="subtitle2" component="h2">
        {translate('resources.email-templates.merge_fields.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('resources.email-templates.merge_fields.help')}
      </Typography>
      {/* Each field's chip with its description under it, so a narrow column never leaves a description between two chips. */}
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.25 }}>
        {TEMPLATE_MERGE_FIELDS.map((f) => (
          <Box component="li" key={f.name} sx={{ display: 'grid', justifyItems: 'start', gap: 0.25 }}>
            <Chip
              size="small"
              variant="outlined"
              label={`{{${f.name}}}`}
              onClick={() => insert(f.name)}
              aria-label={translate('resources.email-templates.merge_fields.insert', { name: `{{${f.name}}}` })}
              sx={{ fontFamily: 'monospace' }}
            />
            <Typography variant="body2">
              {locale === 'ja' ? f.description.ja : f.description.en}
              <Typography component="span" variant="body2" color="text.secondary">
                {` (${f.example})`}
              </Typography>
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {translate(`resources.email-templates.merge_fields.mails.${f.mails.join('_')}`)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
};
