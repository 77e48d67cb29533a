import { Box, Drawer, Toolbar, Typography } from '@mui/material';
import { LinkBase, useTranslate } from 'react-admin';
import { SIDEBAR_WIDTH } from '../../config';
import { useAgentBranding } from '../../session';
import { SidebarMenu } from './SidebarMenu';

interface SidebarProps {
  /** Permanent beside the content on wide screens, a temporary drawer below 960 px. */
  permanent: boolean;
  open: boolean;
  onClose: () => void;
}

const Brand = () => {
  const translate = useTranslate();
  const branding = useAgentBranding();
  return (
    <Toolbar component={LinkBase} to="/" sx={{ gap: 1, color: 'inherit', textDecoration: 'none' }}>
      {branding?.logo ? (
        <Box
          component="img"
          src={branding.logo}
          alt={branding.name}
          sx={{ maxHeight: 40, maxWidth: SIDEBAR_WIDTH - 48, objectFit: 'contain' }}
        />
      ) : (
        <Typography variant="h6" component="span" noWrap sx={{ fontWeight: 700 }}>
          {translate('app.product')}
        </Typography>
      )}
    </Toolbar>
  );
};

export const Sidebar = ({ permanent, open, onClose }: SidebarProps) => {
  const translate = useTranslate();
  return (
    <Drawer
      variant={permanent ? 'permanent' : 'temporary'}
      open={permanent || open}
      onClose={onClose}
      // Closed on a phone, the menu is not rendered until first opened (less work before the page answers).
      // As a temporary drawer the paper is a dialog, which needs a name.
      slotProps={{ paper: permanent ? undefined : { 'aria-label': translate('app.menu.label') } }}
      sx={{
        width: permanent ? SIDEBAR_WIDTH : 0,
        flexShrink: 0,
        // Docked, the column itself is painted: it runs the page's full height, however long the page
        // (the fixed paper alone covers only the viewport, so a long page showed the background below it).
        ...(permanent && { bgcolor: 'background.paper', borderRight: 1, borderColor: 'divider' }),
        '& .MuiDrawer-paper': { width: SIDEBAR_WIDTH, maxWidth: '85vw', boxSizing: 'border-box' },
      }}
    >
      <Brand />
      <SidebarMenu onNavigate={permanent ? () => undefined : onClose} />
    </Drawer>
  );
};
