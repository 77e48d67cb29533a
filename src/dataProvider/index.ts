import { apiRoutes } from './apiRoutes';
import { createDataProvider } from './dataProvider';
import { request } from './http';

export { apiRoutes, type ApiRoute } from './apiRoutes';
export { createDataProvider, type AppDataProvider, type SelectOption } from './dataProvider';
export { request, type Service, type RequestOptions } from './http';
export { SERVER_ERROR, fieldErrorsOf, isRecordNotFound } from './errors';

export const dataProvider = createDataProvider({ routes: apiRoutes, request });
