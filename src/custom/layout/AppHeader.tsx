import { useCallback, useState } from 'react';
import { AppBar, Avatar, Box, Chip, IconButton, Toolbar, Tooltip, Typography, useMediaQuery, type Theme } from '@mui/material';
import DocumentScannerIcon from '@mui/icons-material/DocumentScanner';
import MenuIcon from '@mui/icons-material/Menu';
import PersonIcon from '@mui/icons-material/Person';
import { LinkBase, useTranslate } from 'react-admin';
import { can } from '../../domain/permissions';
import { displayName, useCurrentUser } from '../../session';
import { AccountDrawer } from './AccountDrawer';
import { LanguageSelector } from './LanguageSelector';
import { SelectionSelect } from './SelectionSelect';
import { useHeaderSelection } from './useHeaderSelection';

/**
 * The header. Below 600 px the selectors move to a second row so a 360 px phone
 * never scrolls sideways.
 */
export const AppHeader = ({ showMenuButton, onMenuClick }: { showMenuButton: boolean; onMenuClick: () => void }) => {
  const translate = useTranslate();
  const user = useCurrentUser();
  const { agent, client, agentOptions, clientOptions, chooseAgent, chooseClient } = useHeaderSelection();
  const [accountOpen, setAccountOpen] = useState(false);
  const closeAccount = useCallback(() => setAccountOpen(false), []);
  // On a phone the selectors' row sits right under the icons, so a tooltip below them would cover the language.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const name = (user && displayName(user)) || translate('app.account.user');

  return (
    <AppBar position="sticky" color="primary" elevation={1}>
      <Toolbar sx={{ flexWrap: 'wrap', columnGap: 1, rowGap: 1, py: 1, px: { xs: 1, sm: 2 } }}>
        {showMenuButton && (
          <IconButton color="inherit" edge="start" onClick={onMenuClick} aria-label={translate('app.header.open_menu')}>
            <MenuIcon />
          </IconButton>
        )}
        <Typography variant="h6" component="span" noWrap sx={{ flex: 1, minWidth: 0, visibility: showMenuButton ? 'visible' : 'hidden' }}>
          {translate('app.product')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, order: { xs: 3, sm: 0 }, width: { xs: '100%', sm: 'auto' } }}>
          <SelectionSelect label={translate('app.header.agent')} options={agentOptions} value={agent} onChange={chooseAgent} />
          <SelectionSelect label={translate('app.header.client')} options={clientOptions} value={client} onChange={chooseClient} />
          <LanguageSelector />
        </Box>
        {can(user, 'scan') && (
          <Tooltip title={translate('app.header.scans')} placement={phone ? 'left' : 'bottom'}>
            <IconButton color="inherit" component={LinkBase} to="/scans" aria-label={translate('app.header.scans')}>
              <DocumentScannerIcon />
            </IconButton>
          </Tooltip>
        )}
        <Chip
          onClick={() => setAccountOpen(true)}
          avatar={
            <Avatar>
              <PersonIcon fontSize="small" />
            </Avatar>
          }
          label={name}
          aria-label={translate('app.header.account')}
          sx={{
            color: 'inherit',
            borderColor: 'currentColor',
            maxWidth: { xs: 40, sm: 200 },
            '& .MuiChip-label': { display: { xs: 'none', sm: 'block' } },
          }}
          variant="outlined"
        />
      </Toolbar>
      <AccountDrawer open={accountOpen} onClose={closeAccount} />
    </AppBar>
  );
};
