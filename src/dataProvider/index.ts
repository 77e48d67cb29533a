export { apiRoutesOf, type ApiRoute, type DefinitionLookup } from './apiRoutes';
export { createDataProvider, type AppDataProvider } from './dataProvider';
export type { Option } from './calls/options';
export { request, type Service, type RequestOptions, type SelectOption } from './http';
export { SERVER_ERROR, fieldErrorsOf, isRecordNotFound } from './errors';
