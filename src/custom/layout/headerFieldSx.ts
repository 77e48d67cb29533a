/** Outlined selects drawn in the app bar's text colour, whatever the agent's branding. */
export const headerFieldSx = {
  '& .MuiInputBase-root, & .MuiSvgIcon-root': { color: 'inherit' },
  '& .MuiInputLabel-root, & .MuiInputLabel-root.Mui-focused': { color: 'inherit', opacity: 0.85 },
  '& .MuiOutlinedInput-notchedOutline, & .MuiInputBase-root:hover .MuiOutlinedInput-notchedOutline, & .MuiInputBase-root.Mui-focused .MuiOutlinedInput-notchedOutline':
    { borderColor: 'currentColor', opacity: 0.6 },
};
