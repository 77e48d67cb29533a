import type { ReactNode } from 'react';
import { Navigate } from 'react-admin';
import { can } from '../domain/permissions';
import { useCurrentUser } from '../session';

/** A page needing a permission the user lacks redirects to /. */
export const RequirePermission = ({ permission, children }: { permission: string | null; children: ReactNode }) => {
  const user = useCurrentUser();
  return can(user, permission) ? children : <Navigate to="/" replace />;
};

export const RedirectHome = () => <Navigate to="/" replace />;
