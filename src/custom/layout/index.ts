import type { ReactNode } from 'react';
import { lazyPage } from '../../components/lazyPage';

/** The signed-in layout; loaded only once a signed-in route renders. */
export const AppLayout = lazyPage<{ children: ReactNode }, 'AppLayout'>(() => import('./AppLayout'), 'AppLayout');
