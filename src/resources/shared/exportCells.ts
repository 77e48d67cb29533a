import type { QueryClient } from '@tanstack/react-query';
import type { AppDataProvider, SelectOption } from '../../dataProvider';
import { formatDateTime } from '../../domain/format';
import type { FieldSpec } from '../../domain/fields';
import type { ResourceDescription } from '../types';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Text without its tags, as a rich-text cell shows it. */
const stripTags = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * How each listed column of a described resource writes into its export: as the list shows it, in the user's
 * language. A reference by its name (the select list the cell reads, from the cache or asked once), a choice by its
 * label, a switch Yes / No, a date-time in the display format, rich text without its tags; numbers stay numbers.
 */
export async function exportCells(
  description: ResourceDescription,
  sources: readonly string[],
  deps: { queryClient: QueryClient; dataProvider: AppDataProvider; translate: Translate; locale: string },
): Promise<((record: Record<string, unknown>) => string | number | null)[]> {
  const { queryClient, dataProvider, translate, locale } = deps;
  const options = (resource: string) =>
    queryClient.fetchQuery<SelectOption[]>({
      queryKey: [resource, 'getSelectOptions', {}],
      queryFn: () => dataProvider.getSelectOptions(resource),
      staleTime: 5 * 60_000,
    });
  const many = (value: unknown, one: (v: unknown) => string) => (Array.isArray(value) ? value.map(one).join(', ') : one(value));
  const textOf = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  const blank = (value: unknown) => value === null || value === undefined || value === '';

  const cellOf = async (source: string): Promise<(record: Record<string, unknown>) => string | number | null> => {
    const extra = description.extraColumns?.find((c) => c.source === source);
    if (extra)
      return (r) => {
        const v = r[source];
        if (blank(v)) return null;
        return extra.type === 'datetime' && (typeof v === 'string' || typeof v === 'number') ? formatDateTime(v, locale) : textOf(v);
      };
    const spec: FieldSpec | undefined = description.fields[source];
    const display = description.columnDisplay?.[source];
    if (display === 'html') return (r) => (typeof r[source] === 'string' ? stripTags(r[source]) : null);
    if (display) return (r) => display(r[source]);
    switch (spec?.type) {
      case 'choice':
      case 'multichoice': {
        const label = (id: unknown) => {
          const choice = spec.choices.find((c) => c.id === id);
          return choice ? translate(`resources.${description.name}.choices.${source}.${choice.id}`, { _: choice.name }) : textOf(id);
        };
        return (r) => (blank(r[source]) ? null : many(r[source], label));
      }
      case 'boolean':
        return (r) =>
          blank(r[source])
            ? null
            : translate(r[source] === true || r[source] === 1 || r[source] === '1' ? 'ra.boolean.true' : 'ra.boolean.false');
      case 'reference':
      case 'references': {
        if (spec.type === 'references' && spec.by === 'name') return (r) => (blank(r[source]) ? null : many(r[source], textOf));
        const names = new Map((await options(spec.reference)).map((o) => [String(o.value), o.text]));
        return (r) => (blank(r[source]) ? null : many(r[source], (v) => names.get(textOf(v)) ?? textOf(v)));
      }
      case 'richtext':
        return (r) => (typeof r[source] === 'string' ? stripTags(r[source]) : null);
      case 'secret':
        return () => null;
      case 'number':
        return (r) => (typeof r[source] === 'number' ? r[source] : blank(r[source]) ? null : textOf(r[source]));
      default:
        return (r) => (blank(r[source]) ? null : textOf(r[source]));
    }
  };
  return Promise.all(sources.map(cellOf));
}
