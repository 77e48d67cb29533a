import { memo } from 'react';
import { Avatar, Box, Button, Divider, Drawer, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/Edit';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonIcon from '@mui/icons-material/Person';
import SwitchAccountIcon from '@mui/icons-material/SwitchAccount';
import { LinkBase, useLogout, useTranslate } from 'react-admin';
import { can } from '../../domain/permissions';
import { displayName, useCurrentUser, useImpersonatedUser } from '../../session';
import * as updateProfile from '../update-profile';
import { useLeaveImpersonation } from './useLeaveImpersonation';

/** My Account drawer, opened from the header's user chip. */
export const AccountDrawer = memo(function AccountDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const user = useCurrentUser();
  const impersonating = useImpersonatedUser() !== null;
  const logout = useLogout();
  const leave = useLeaveImpersonation();
  const name = (user && displayName(user)) || translate('app.account.user');

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { 'aria-labelledby': 'account-drawer-title', sx: { width: 300, maxWidth: '100vw' } } }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1 }}>
        <Typography id="account-drawer-title" variant="h6" component="h2" sx={{ flex: 1 }}>
          {translate('app.account.title')}
        </Typography>
        <IconButton onClick={onClose} aria-label={translate('app.account.close')}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Divider />
      <Stack spacing={2} sx={{ p: 2, alignItems: 'center' }}>
        <Avatar sx={{ width: 56, height: 56, bgcolor: 'primary.main', color: 'primary.contrastText' }}>
          <PersonIcon sx={{ fontSize: 50 }} />
        </Avatar>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, maxWidth: '100%' }}>
          <Typography variant="subtitle1" noWrap>
            {name}
          </Typography>
          {can(user, updateProfile.permission) && (
            <Tooltip title={translate('app.account.edit_profile')}>
              <IconButton
                component={LinkBase}
                to={updateProfile.path}
                onClick={onClose}
                size="small"
                aria-label={translate('app.account.edit_profile')}
              >
                <EditIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        </Box>
        {impersonating && (
          <Button
            fullWidth
            variant="outlined"
            startIcon={<SwitchAccountIcon />}
            onClick={() => {
              onClose();
              void leave();
            }}
          >
            {translate('app.account.leave_impersonate')}
          </Button>
        )}
        <Button
          fullWidth
          variant="contained"
          startIcon={<LogoutIcon />}
          onClick={() => {
            onClose();
            // A deliberate sign-out: the next sign-in (perhaps another user's) starts at /.
            void logout({}, undefined, false);
          }}
        >
          {translate('app.account.logout')}
        </Button>
      </Stack>
    </Drawer>
  );
});
