import { Confirm as RaConfirm, type ConfirmProps } from 'react-admin';

/** Once the dialog is in, the focus moves to its first action, Cancel. */
const focusCancel = (node: HTMLElement) => node.querySelector<HTMLButtonElement>('.MuiDialogActions-root button')?.focus();

/**
 * react-admin's Confirm opening on its Cancel button. react-admin focuses the confirming button, so a user who
 * presses Enter to open a delete, a revocation or a new API key would answer it with the next Enter; every
 * confirmation here asks before something that cannot be taken back, and its safe answer comes first.
 */
export const Confirm = (props: ConfirmProps) => <RaConfirm {...props} slotProps={{ transition: { onEntered: focusCancel } }} />;
