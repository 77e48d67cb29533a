import { enScreens } from './en';
import { withScreens } from './en-core';

/** The whole English catalogue in one import, for tests and tools (the app loads it in two parts). */
export const en = withScreens(enScreens);
