export { apiRoutesOf, type ApiRoute, type DefinitionLookup } from './apiRoutes';
export { createDataProvider, type AppDataProvider, type ListMeta } from './dataProvider';
export type { ExportQuery } from './calls/exports';
export {
  KIOSK_HEADER,
  KioskRequiredError,
  PincodeError,
  PortalNotFoundError,
  PortalScanNotFoundError,
  PortalThrottledError,
  type PortalAgent,
} from './calls/portal';
export type { Option } from './calls/options';
export { request, type Service, type RequestOptions, type SelectOption } from './http';
export { SERVER_ERROR, fieldErrorsOf, isRecordNotFound } from './errors';
