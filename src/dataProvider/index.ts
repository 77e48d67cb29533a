export { apiRoutesOf, type ApiRoute, type DefinitionLookup } from './apiRoutes';
export { createDataProvider, type AppDataProvider, type SelectOption } from './dataProvider';
export type { Option } from './calls/options';
export { request, type Service, type RequestOptions } from './http';
export { SERVER_ERROR, fieldErrorsOf, isRecordNotFound } from './errors';
