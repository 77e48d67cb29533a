import { Box, Drawer, Toolbar, Typography } from '@mui/material';
import { LinkBase, useTranslate } from 'react-admin';
import { SIDEBAR_WIDTH } from '../../config';
import { useAgentBranding } from '../../session';
import { SidebarMenu } from './SidebarMenu';

interface SidebarProps {
  /** Permanent beside the content on wide screens, a temporary drawer below 960 px (spec 1 §2). */
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

export const Sidebar = ({ permanent, open, onClose }: SidebarProps) => (
  <Drawer
    variant={permanent ? 'permanent' : 'temporary'}
    open={permanent || open}
    onClose={onClose}
    ModalProps={{ keepMounted: true }}
    sx={{
      width: permanent ? SIDEBAR_WIDTH : 0,
      flexShrink: 0,
      '& .MuiDrawer-paper': { width: SIDEBAR_WIDTH, maxWidth: '85vw', boxSizing: 'border-box' },
    }}
  >
    <Brand />
    <SidebarMenu onNavigate={permanent ? () => undefined : onClose} />
  </Drawer>
);
