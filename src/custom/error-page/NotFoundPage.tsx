import { Button } from '@mui/material';
import { LinkBase, useTranslate } from 'react-admin';
import { StatusPage } from '../../components/StatusPage';
import { SUPPORT_EMAIL } from '../../config';
import { useCurrentUser } from '../../session';

export const NotFoundPage = () => {
  const translate = useTranslate();
  const user = useCurrentUser();
  const subject = encodeURIComponent(translate('app.error.report_subject'));
  const body = encodeURIComponent(translate('app.error.report_body', { url: window.location.href }));
  return (
    <StatusPage code="404" message={translate('app.error.page_not_found')}>
      <Button variant="contained" component={LinkBase} to={user ? '/' : '/login'}>
        {translate('app.error.back_home')}
      </Button>
      <Button variant="outlined" href={`mailto:${SUPPORT_EMAIL}?subject=${subject}&body=${body}`}>
        {translate('app.error.report')}
      </Button>
    </StatusPage>
  );
};
