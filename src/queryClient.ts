import { QueryClient } from '@tanstack/react-query';

/**
 * The app's query cache: react-admin's (App.tsx hands it over) and the one src/main.tsx fills when it asks for a
 * page's first data at the app's start, so the page reads that reply instead of asking again.
 */
export const queryClient = new QueryClient();
