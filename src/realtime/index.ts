/** Live events (laravel-echo over the Pusher protocol): the connection and the hook screens use. */
export { realtime } from './instance';
export type { Realtime, ScanEventHandlers, ScanEventPayload } from './manager';
export { useScanEvents } from './useScanEvents';
