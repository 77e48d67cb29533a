import { Route } from 'react-router-dom';
import { RequirePermission } from '../components/RequirePermission';
import type { PageEntry } from './pages';

/** A bespoke page's <Route>: behind its permission when it names one. */
export const pageRoute = ({ path, permission, Page }: PageEntry) => (
  <Route
    key={path}
    path={path}
    element={
      permission ? (
        <RequirePermission permission={permission}>
          <Page />
        </RequirePermission>
      ) : (
        <Page />
      )
    }
  />
);
