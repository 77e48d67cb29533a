import { accessRulesOf, createAuthProvider } from './authProvider';
import { apiRoutesOf, createDataProvider, request } from './dataProvider';

/**
 * The plain resources' definitions (src/resources) load with the first call that needs one, never with the sign-in
 * page; the providers sit below the resources, so the root hands them this lookup.
 */
const definitionOf = (resource: string) => import('./resources/definitions').then((m) => m.definitionOf(resource));

export const dataProvider = createDataProvider({ routes: apiRoutesOf(definitionOf), request });
export const authProvider = createAuthProvider({ request, access: accessRulesOf(definitionOf) });
