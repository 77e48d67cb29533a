import { useState } from 'react';
import { Button, Menu, MenuItem } from '@mui/material';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { useEditorState } from '@tiptap/react';
import { useTranslate } from 'react-admin';
import { useTiptapEditor } from 'ra-input-rich-text';
// The paragraph and heading commands' types come with the extensions the editor uses.
import type {} from '@tiptap/starter-kit';

type Level = { label: string; defaultLabel: string; level: 0 | 1 | 2 | 3 | 4 | 5 | 6 };

// The paragraph styles of ra-input-rich-text's LevelSelect (its ra.tiptap.* keys), 0 meaning normal text.
const LEVELS: Level[] = [
  { label: 'ra.tiptap.paragraph', defaultLabel: 'Normal', level: 0 },
  { label: 'ra.tiptap.heading1', defaultLabel: 'Heading 1', level: 1 },
  { label: 'ra.tiptap.heading2', defaultLabel: 'Heading 2', level: 2 },
  { label: 'ra.tiptap.heading3', defaultLabel: 'Heading 3', level: 3 },
  { label: 'ra.tiptap.heading4', defaultLabel: 'Heading 4', level: 4 },
  { label: 'ra.tiptap.heading5', defaultLabel: 'Heading 5', level: 5 },
  { label: 'ra.tiptap.heading6', defaultLabel: 'Heading 6', level: 6 },
];

/**
 * The toolbar's paragraph style menu. ra-input-rich-text's own puts a lone <li> in a <nav> (axe: listitem);
 * this is a menu button instead, with the same labels.
 */
export const RichTextLevelSelect = () => {
  const translate = useTranslate();
  const editor = useTiptapEditor();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = useEditorState({
    editor,
    selector: ({ editor: e }) =>
      LEVELS.find((o) => (o.level === 0 ? e?.isActive('paragraph') : e?.isActive('heading', { level: o.level }))) ?? LEVELS[0],
  });
  const text = (o: Level) => translate(o.label, { _: o.defaultLabel });
  const choose = (o: Level) => {
    setAnchor(null);
    if (!editor) return;
    if (o.level === 0) editor.chain().focus().setParagraph().run();
    else editor.chain().focus().setHeading({ level: o.level }).run();
  };
  return (
    <>
      <Button
        size="small"
        color="inherit"
        endIcon={<ArrowDropDownIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-label={`${translate('ra.tiptap.select_level', { _: 'Select the level' })}: ${text(current)}`}
        disabled={!editor?.isEditable}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ textTransform: 'none', minWidth: 120, justifyContent: 'space-between' }}
      >
        {text(current)}
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {LEVELS.map((o) => (
          <MenuItem key={o.label} selected={o === current} onClick={() => choose(o)}>
            {text(o)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
