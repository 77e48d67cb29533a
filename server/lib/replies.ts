import { z } from 'zod';

/** The wire contract's shapes, used as response schemas so internal columns never leave. */
const MessageKeyReply = z.object({ key: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() });
export const ErrorReply = z.object({
  error: z.union([z.string(), z.array(z.string()), z.record(z.string(), z.string())]),
  /**
   * Beside a 422 field map: the message key of each field whose message a domain rule made
   * (src/domain/messages.ts), so the browser shows it in the user's language. Fields without one keep their text.
   */
  messages: z.record(z.string(), MessageKeyReply).optional(),
  /** Beside a refusal's text that a domain rule made: its message key, as for `messages`. */
  message: MessageKeyReply.optional(),
  requestId: z.string().optional(),
});
export const dataReply = <T extends z.ZodType>(record: T) => z.object({ data: record });
export const pageReply = <T extends z.ZodType>(record: T) => z.object({ items: z.array(record), total: z.number().int() });
/** The email templates' page: `{items, meta: {total, last_page}}`. */
export const metaPageReply = <T extends z.ZodType>(record: T) =>
  z.object({ items: z.array(record), meta: z.object({ total: z.number().int(), last_page: z.number().int() }) });
export const ListsReply = z.array(z.object({ text: z.string(), value: z.union([z.number(), z.string()]) }));
export const MessageReply = z.object({ data: z.object({ message: z.string() }) });

/** Error replies every authenticated route may give, for the OpenAPI page. */
export const authErrors = { 401: ErrorReply, 403: ErrorReply, 422: ErrorReply, 429: ErrorReply, 500: ErrorReply } as const;
export const recordErrors = { ...authErrors, 404: ErrorReply } as const;
