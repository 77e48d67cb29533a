export * from './storage';
export * from './currentUser';
export * from './selection';
export * from './kioskToken';
export * from './sessionEnd';
