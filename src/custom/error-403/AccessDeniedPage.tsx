import { Button } from '@mui/material';
import { LinkBase, useTranslate } from 'react-admin';
import { firstPermittedRoute } from '../../domain/access';
import { MENU } from '../../resources/definitions';
import { can } from '../../domain/permissions';
import { StatusPage } from '../../components/StatusPage';
import { useCurrentUser, type CurrentUser } from '../../session';

/** The way home: / with scan permission, else the first permitted menu entry, else /login when signed out. */
export const homeFor = (user: CurrentUser | null) =>
  !user ? '/login' : can(user, 'scan') ? '/' : (firstPermittedRoute(user, MENU) ?? '/');

export const AccessDeniedPage = () => {
  const translate = useTranslate();
  const user = useCurrentUser();
  return (
    <StatusPage code="403" message={translate('app.error.access_denied')}>
      <Button variant="contained" component={LinkBase} to={homeFor(user)}>
        {translate('app.error.back_home')}
      </Button>
    </StatusPage>
  );
};
