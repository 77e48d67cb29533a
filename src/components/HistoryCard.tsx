import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, CircularProgress, List, ListItem, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useQuery } from '@tanstack/react-query';
import { type Identifier, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { formatDateTime } from '../domain/format';
import { formatStoredAmount } from '../domain/money';
import { changesOf, declinedLinesText, type EventRecord, type EventSubject, type EventValue } from '../domain/history';
import type { AppDataProvider } from '../dataProvider';
import { damageFieldLabel, TYRE_CHOICE_FIELD, tyreChoiceText, type WheelLabels } from './changeLabel';
import { downloadText, exportFileName } from './downloadFile';
import { useNotifyError } from './useNotifyError';

const T = 'app.history';

/** A quote's amounts (dollars), shown with their cents. */
const AMOUNTS = /^(product|sub_total|tax|grand_total|approved_total)$/;

/** A stored code reads as the screens name it (`pdr`, `partially_approved`, `arch` otherwise): the field's pattern, its names. */
const CODE_NAMES: Record<EventSubject, [RegExp, string][]> = {
  quote: [
    [/\.dent_repair$/, 'app.quotes.generation.repair_types'],
    [/\.scratch_repair$/, 'app.quotes.generation.scratch_types'],
    [/\.dent_level$/, 'app.quotes.generation.levels'],
    [/^status$/, 'app.approval.status'],
    [/^type$/, 'app.scans.type'],
  ],
  scan: [
    [/^status$/, 'app.scans.status'],
    [/^type$/, 'app.scans.type'],
  ],
};

/** A changed field's label: a panel's count reads `Bonnet · Dents (Light)`, a wheel's choice `Tyre FRONT LEFT`. */
function useFieldLabel(wheels: WheelLabels | undefined) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (field: string) => {
    const damage = damageFieldLabel(field, translate, locale, wheels);
    if (damage) return damage;
    const repair = /^(.+)\.(dent_repair|scratch_repair|dent_level)$/.exec(field);
    if (repair) return `${repair[1]} · ${translate(`${T}.fields.${repair[2]}`)}`;
    return translate(`${T}.fields.${field}`, { _: field });
  };
}

/**
 * A scan's or a quote's history (who changed what, when, in Melbourne time), oldest first, with a CSV download.
 * It reloads whenever `changed` does: the page hands it the record it shows, so the page's own saves show here.
 * A quote's amounts print in its `currency` when the page knows it, and a tyre choice names its wheel as `wheels` do.
 */
export function HistoryCard({
  subject,
  id,
  changed,
  currency,
  wheels,
}: {
  subject: EventSubject;
  id: Identifier;
  changed?: unknown;
  currency?: string | null;
  wheels?: WheelLabels;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifyError = useNotifyError();
  const fieldLabel = useFieldLabel(wheels);
  const [downloading, setDownloading] = useState(false);
  const { data, error, refetch } = useQuery({
    queryKey: ['history', subject, String(id)],
    queryFn: () => dataProvider.history(subject, id),
    retry: false,
  });
  const mounted = useRef(false);
  useEffect(() => {
    // The first render's load is the query's own.
    if (mounted.current) void refetch();
    mounted.current = true;
  }, [changed, refetch]);

  const value = (field: string, v: EventValue) => {
    if (v === null || v === '') return translate(`${T}.none`);
    if (field === 'declined_lines') return declinedLinesText(v, locale);
    if (typeof v === 'boolean') return translate(`${T}.${v ? 'yes' : 'no'}`);
    if (AMOUNTS.test(field) && typeof v === 'number') return formatStoredAmount(v, currency);
    if (TYRE_CHOICE_FIELD.test(field)) return tyreChoiceText(String(v), translate);
    const code = CODE_NAMES[subject].find(([pattern]) => pattern.test(field));
    return code ? translate(`${code[1]}.${String(v)}`, { _: String(v) }) : String(v);
  };
  const who = (e: EventRecord) => {
    const name = e.actor_name ?? translate(`${T}.nobody`);
    return e.admin_name ? translate(`${T}.impersonated`, { name, admin: e.admin_name }) : name;
  };
  const download = async () => {
    setDownloading(true);
    try {
      downloadText(await dataProvider.historyCsv(subject, id), exportFileName(`${subject}-${id}-history`, 'csv'));
    } catch (e) {
      notifyError(e);
    } finally {
      setDownloading(false);
    }
  };

  const titleId = `${subject}-history-title`;
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId} sx={{ minWidth: 0 }}>
      <CardHeader
        title={translate(`${T}.title`)}
        action={
          <Button
            size="small"
            onClick={() => void download()}
            disabled={downloading || !data?.length}
            startIcon={downloading ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}
          >
            {translate(`${T}.download`)}
          </Button>
        }
        slotProps={{ title: { variant: 'subtitle1', component: 'h2', id: titleId, sx: { fontWeight: 600 } } }}
        sx={{ pb: 0, '& .MuiCardHeader-action': { alignSelf: 'center', m: 0 } }}
      />
      <CardContent sx={{ minWidth: 0 }}>
        {error ? (
          <Alert severity="warning">{translate(`${T}.failed`)}</Alert>
        ) : data && !data.length ? (
          <Typography variant="body2" color="text.secondary">
            {translate(`${T}.empty`)}
          </Typography>
        ) : (
          <List dense disablePadding aria-label={translate(`${T}.title`)}>
            {(data ?? []).map((e) => (
              <ListItem key={e.id} disableGutters sx={{ display: 'block', borderBottom: 1, borderColor: 'divider', py: 1 }}>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {translate(`${T}.actions.${e.action}`, { _: e.action })}
                </Typography>
                <Typography variant="caption" color="text.secondary" component="p">
                  <time dateTime={e.at}>{formatDateTime(e.at, locale)}</time> · {who(e)}
                </Typography>
                {changesOf(e).length > 0 && (
                  <Box component="ul" sx={{ m: 0, pl: 2 }}>
                    {changesOf(e).map((c) => (
                      <Typography key={c.field} component="li" variant="body2">
                        {translate(`${T}.change`, {
                          field: fieldLabel(c.field),
                          before: value(c.field, c.before),
                          after: value(c.field, c.after),
                        })}
                      </Typography>
                    ))}
                  </Box>
                )}
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
    </Card>
  );
}
