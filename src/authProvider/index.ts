export { createAuthProvider } from './authProvider';
export { accessRulesOf } from './resourceAccess';
