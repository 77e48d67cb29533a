import { localDate } from '../domain/format';

// Builds the first Melbourne date format off the main thread (see warmUpIntl.ts), then ends.
localDate(new Date());
close();
