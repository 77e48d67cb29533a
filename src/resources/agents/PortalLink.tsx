import { IconButton, Tooltip } from '@mui/material';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { LinkBase, useRecordContext, useTranslate } from 'react-admin';

/** Agents: the row's customer portal icon, only while the agent is enabled (is_enabled 1). */
export const PortalLink = () => {
  const translate = useTranslate();
  const record = useRecordContext();
  if (!record || Number(record.is_enabled) !== 1) return null;
  const label = translate('resources.agents.portal');
  return (
    <Tooltip title={label}>
      <IconButton
        size="small"
        color="primary"
        component={LinkBase}
        to={`/customer-portal/${encodeURIComponent(String(record.id))}`}
        aria-label={label}
      >
        <StorefrontIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
};
