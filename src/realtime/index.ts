/** Live events (laravel-echo over the Pusher protocol): the hook screens use and its handler types. */
export type { ScanEventHandlers } from './manager';
export { useQuoteEvents } from './useQuoteEvents';
export { useScanEvents } from './useScanEvents';
export { usePresence } from './usePresence';
