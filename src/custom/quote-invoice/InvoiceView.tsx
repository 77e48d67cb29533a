import { useState } from 'react';
import {
  Box,
  Divider,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Invoice, InvoiceField, InvoiceSection } from '../../domain/invoice';
import type { SupplementBlock } from '../../domain/supplement-block';

/**
 * The estimate invoice ("Invoice") drawn from the invoice model alone (src/domain/invoice.ts), like the PDF:
 * the agent block, 'ESTIMATE #', the vehicle header and photo, a supplement's changes, a table per section with lines,
 * products, parts, the assessor's comments and the totals.
 * At 360 px a section's table scrolls sideways inside its own region and the description moves under the panel.
 */

const money = { textAlign: 'right', whiteSpace: 'nowrap' } as const;
/** Below sm the description column folds into the panel cell. */
const wideOnly = { display: { xs: 'none', sm: 'table-cell' } } as const;

const Fields = ({ fields, columns }: { fields: InvoiceField[]; columns: 1 | 2 }) => (
  <Box
    component="dl"
    sx={{
      m: 0,
      display: 'grid',
      gridTemplateColumns: { xs: 'max-content 1fr', sm: columns === 2 ? 'max-content 1fr max-content 1fr' : 'max-content 1fr' },
      columnGap: 2,
      rowGap: 0.25,
    }}
  >
    {fields.map((f) => (
      <Box key={f.key} sx={{ display: 'contents' }}>
        <Typography component="dt" variant="body2" color="text.secondary">
          {f.label}
        </Typography>
        <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
          {f.value}
        </Typography>
      </Box>
    ))}
  </Box>
);

/** The agent's logo; when it cannot be loaded (or there is none), the agent's name instead. */
const AgentMark = ({ name, logo }: { name: string; logo: string | null }) => {
  const translate = useTranslate();
  const [failed, setFailed] = useState<string | null>(null);
  if (logo && failed !== logo)
    return (
      <Box
        component="img"
        src={logo}
        alt={translate('app.invoice.logo', { name })}
        onError={() => setFailed(logo)}
        // Its height is kept before the file arrives, so nothing below it moves.
        sx={{ display: 'block', height: 80, maxWidth: 220, objectFit: 'contain', objectPosition: 'left' }}
      />
    );
  return (
    <Typography component="p" variant="h5" sx={{ fontWeight: 700, color: 'primary.main' }}>
      {name}
    </Typography>
  );
};

/** The vehicle photo, scaled to the page; left out when it cannot be loaded, as the PDF leaves out an unreadable one. */
const VehiclePhoto = ({ src, title }: { src: string; title: string }) => {
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === src) return null;
  return (
    <Box component="section" aria-labelledby="invoice-photo" sx={{ mt: 3, breakInside: 'avoid' }}>
      <Typography id="invoice-photo" component="h2" variant="h6" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Box
        component="img"
        src={src}
        alt={title}
        onError={() => setFailed(src)}
        sx={{ display: 'block', height: 320, maxWidth: '100%', objectFit: 'contain', objectPosition: 'left' }}
      />
    </Box>
  );
};

const SectionTable = ({ invoice, section }: { invoice: Invoice; section: InvoiceSection }) => {
  const { labels } = invoice;
  const fees = section.surcharges.map((s) => `${s}_fee` as const);
  const titleId = `invoice-section-${section.key}`;
  return (
    <Box sx={{ mt: 3, breakInside: 'avoid' }}>
      <Typography id={titleId} component="h2" variant="h6" sx={{ mb: 1 }}>
        {section.title}
      </Typography>
      {/* The section is this region, named by its heading; it scrolls sideways on a phone, so it takes the keyboard's focus (axe: scrollable-region-focusable). */}
      <TableContainer tabIndex={0} role="region" aria-labelledby={titleId}>
        <Table size="small" sx={{ '& td, & th': { px: 1 } }}>
          <TableHead>
            <TableRow>
              <TableCell>{section.subject}</TableCell>
              <TableCell sx={wideOnly}>{labels.description}</TableCell>
              <TableCell sx={money}>{labels.repair_fee}</TableCell>
              {fees.map((f) => (
                <TableCell key={f} sx={money}>
                  {labels[f]}
                </TableCell>
              ))}
              <TableCell sx={money}>{labels.amount}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {section.lines.map((line) => (
              <TableRow key={`${line.panel_id}-${line.kind}`}>
                <TableCell>
                  {line.panel}
                  <Typography component="span" variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                    {line.description}
                  </Typography>
                </TableCell>
                <TableCell sx={wideOnly}>{line.description}</TableCell>
                <TableCell sx={money}>{line.repair_fee}</TableCell>
                {fees.map((f) => (
                  <TableCell key={f} sx={money}>
                    {line[f]}
                  </TableCell>
                ))}
                <TableCell sx={money}>{line.total}</TableCell>
              </TableRow>
            ))}
          </TableBody>
          <TableFooter>
            <TableRow>
              <TableCell colSpan={fees.length + 2} sx={{ fontWeight: 700, color: 'text.primary', fontSize: '0.875rem' }}>
                {labels.totals[section.key]}
              </TableCell>
              <TableCell sx={{ ...wideOnly, p: 0 }} />
              <TableCell sx={{ ...money, fontWeight: 700, color: 'text.primary', fontSize: '0.875rem' }}>{section.total}</TableCell>
            </TableRow>
          </TableFooter>
        </Table>
      </TableContainer>
    </Box>
  );
};

/** A supplement's changes since the revision sent before it, worded as its PDF words them (src/domain/supplement-block.ts). */
const SupplementChanges = ({ block }: { block: SupplementBlock }) => (
  <Box sx={{ mt: 3, breakInside: 'avoid' }}>
    <Typography id="invoice-supplement" component="h2" variant="h6" sx={{ mb: 1 }}>
      {block.title}
    </Typography>
    <TableContainer tabIndex={0} role="region" aria-labelledby="invoice-supplement">
      <Table size="small" sx={{ '& td, & th': { px: 1 } }}>
        <TableHead>
          <TableRow>
            <TableCell>{block.head[0]}</TableCell>
            <TableCell>{block.head[1]}</TableCell>
            <TableCell sx={money}>{block.head[2]}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {block.rows.map(([line, change, amount], i) => (
            <TableRow key={i}>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{line}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{change}</TableCell>
              <TableCell sx={money}>{amount}</TableCell>
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          <TableRow>
            <TableCell sx={{ fontWeight: 700, color: 'text.primary', fontSize: '0.875rem' }}>{block.total[0]}</TableCell>
            <TableCell colSpan={2} sx={{ textAlign: 'right', fontWeight: 700, color: 'text.primary', fontSize: '0.875rem' }}>
              {block.total[1]}
            </TableCell>
          </TableRow>
        </TableFooter>
      </Table>
    </TableContainer>
  </Box>
);

export const InvoiceView = ({ invoice, supplement }: { invoice: Invoice; supplement?: SupplementBlock | null }) => {
  const translate = useTranslate();
  const { labels } = invoice;
  return (
    <Box component="article" lang={invoice.language} aria-labelledby="invoice-title">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}>
        <Box component="section" aria-label={translate('app.invoice.agent')} sx={{ minWidth: 0 }}>
          <AgentMark name={invoice.agent.name} logo={invoice.agent.logo} />
          <Box sx={{ mt: 1 }}>
            <Fields fields={invoice.agent.fields} columns={1} />
          </Box>
        </Box>
        <Box sx={{ textAlign: { sm: 'right' } }}>
          <Typography id="invoice-title" component="h1" variant="h4" sx={{ fontWeight: 700, color: 'primary.main' }}>
            {invoice.title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {labels.date}: {invoice.date}
          </Typography>
        </Box>
      </Stack>

      <Divider sx={{ my: 2 }} />
      <Box component="section" aria-label={translate('app.invoice.vehicle')}>
        <Fields fields={invoice.vehicle} columns={2} />
      </Box>

      {invoice.photo && <VehiclePhoto key={invoice.photo} src={invoice.photo} title={labels.vehicle_photo} />}

      {invoice.new_damage && (
        <Box component="section" aria-labelledby="invoice-new-damage" sx={{ mt: 3, breakInside: 'avoid' }}>
          <Typography id="invoice-new-damage" component="h2" variant="h6" sx={{ mb: 1 }}>
            {invoice.new_damage.note}
          </Typography>
          {invoice.new_damage.pre_existing.length > 0 && (
            <Table size="small" aria-label={labels.pre_existing} sx={{ '& td, & th': { px: 1 } }}>
              <TableHead>
                <TableRow>
                  <TableCell colSpan={2}>{labels.pre_existing}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {invoice.new_damage.pre_existing.map((p) => (
                  <TableRow key={p.panel}>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{p.panel}</TableCell>
                    <TableCell sx={money}>{p.total}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Box>
      )}

      {supplement && <SupplementChanges block={supplement} />}

      {invoice.sections
        .filter((s) => s.lines.length > 0)
        .map((s) => (
          <SectionTable key={s.key} invoice={invoice} section={s} />
        ))}

      {invoice.products.length > 0 && (
        <Box component="section" aria-labelledby="invoice-products" sx={{ mt: 3, breakInside: 'avoid' }}>
          <Typography id="invoice-products" component="h2" variant="h6" sx={{ mb: 1 }}>
            {labels.products}
          </Typography>
          <Table size="small" sx={{ '& td, & th': { px: 1 } }}>
            <TableHead>
              <TableRow>
                <TableCell>{labels.product}</TableCell>
                <TableCell sx={money}>{labels.price}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {invoice.products.map((p, i) => (
                <TableRow key={i}>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{p.name}</TableCell>
                  <TableCell sx={money}>{p.price}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}

      {invoice.parts.length > 0 && (
        <Box component="section" aria-labelledby="invoice-parts" sx={{ mt: 3, breakInside: 'avoid' }}>
          <Typography id="invoice-parts" component="h2" variant="h6" sx={{ mb: 1 }}>
            {labels.parts}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {invoice.parts.map((p, i) => (
              <Typography component="li" variant="body2" key={i}>
                {p}
              </Typography>
            ))}
          </Box>
        </Box>
      )}

      {invoice.comments && (
        <Box component="section" aria-labelledby="invoice-comments" sx={{ mt: 3, breakInside: 'avoid' }}>
          <Typography id="invoice-comments" component="h2" variant="h6" sx={{ mb: 1 }}>
            {labels.comments}
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {invoice.comments}
          </Typography>
        </Box>
      )}

      <Box
        component="section"
        aria-labelledby="invoice-totals"
        sx={{ mt: 3, ml: { sm: 'auto' }, maxWidth: { sm: 360 }, breakInside: 'avoid' }}
      >
        <Typography id="invoice-totals" component="h2" variant="h6" sx={{ mb: 1 }}>
          {labels.totals_title}
        </Typography>
        <Table size="small" sx={{ '& td, & th': { px: 1 } }}>
          <TableBody>
            {invoice.totals.map((t) => {
              const strong = t.key === 'sub_total' || t.key === 'grand_total';
              const big = t.key === 'grand_total' ? { fontSize: '1.1rem' } : {};
              return (
                <TableRow key={t.key} sx={t.key === 'grand_total' ? { bgcolor: 'action.hover' } : undefined}>
                  <TableCell component="th" scope="row" sx={{ fontWeight: strong ? 700 : 400, ...big }}>
                    {t.label}
                  </TableCell>
                  <TableCell sx={{ ...money, fontWeight: strong ? 700 : 400, ...big }}>{t.amount}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
};
