import { describe, expect, it } from 'vitest';
import { mailFieldNames, templateFitsMail } from './merge-fields';
import { APPROVAL_TEMPLATE_BODIES, APPROVAL_TEMPLATE_NAMES } from './quote-approval';

describe('templateFitsMail', () => {
  it("keeps the approval request's own templates out of a scan's mail, and in the approval mail", () => {
    for (const language of ['en', 'ja'] as const) {
      const approval = { templateName: APPROVAL_TEMPLATE_NAMES[language], templateBody: APPROVAL_TEMPLATE_BODIES[language] };
      expect(templateFitsMail(approval, 'scan')).toBe(false);
      expect(templateFitsMail(approval, 'approval')).toBe(true);
    }
  });

  it("fits a scan's mail when every placeholder of the subject and the body is a scan's field", () => {
    const scanReport = { templateName: 'Scan of {{registration}}', templateBody: '<p>Dents: {{dent_count}}, at {{location}}</p>' };
    expect(templateFitsMail(scanReport, 'scan')).toBe(true);
    expect(templateFitsMail({ templateName: 'Plain', templateBody: '<p>No placeholder</p>' }, 'scan')).toBe(true);
    // The subject counts as much as the body; markup inside the braces is the editor's, not the name's.
    expect(templateFitsMail({ templateName: 'Quote {{quote_number}}', templateBody: '<p>Hi</p>' }, 'scan')).toBe(false);
    expect(templateFitsMail({ templateName: 'x', templateBody: '<p>{{<em>approval_link</em>}}</p>' }, 'scan')).toBe(false);
    expect(mailFieldNames('scan')).toContain('dent_count');
    expect(mailFieldNames('scan')).not.toContain('approval_link');
  });
});
