import { IconButton, Tooltip } from '@mui/material';
import SupervisedUserCircleIcon from '@mui/icons-material/SupervisedUserCircle';
import { useRecordContext, useTranslate } from 'react-admin';
import { isSuperAdmin } from '../../domain/permissions';
import { includesSuperAdmin } from '../../domain/users';
import { useCurrentUser, useImpersonatedUser } from '../../session';
import { useImpersonate } from './useImpersonate';
import type { User } from '../../domain/records';

/**
 * The users list's impersonate icon: for a Super Admin only, hidden while impersonating, on
 * their own row and on another Super Admin's row (the server refuses those).
 */
export const ImpersonateButton = () => {
  const translate = useTranslate();
  const record = useRecordContext<User>();
  const me = useCurrentUser();
  const impersonating = useImpersonatedUser() !== null;
  const { take, pending } = useImpersonate();
  if (!record || !me || impersonating || !isSuperAdmin(me) || record.id === me.id || includesSuperAdmin(record.roles)) return null;
  const label = translate('resources.users.impersonate.action');
  return (
    <Tooltip title={label}>
      <span>
        <IconButton size="small" color="secondary" aria-label={label} disabled={pending} onClick={() => void take(record.id)}>
          <SupervisedUserCircleIcon fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
  );
};
