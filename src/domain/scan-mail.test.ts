// @vitest-environment jsdom
// (this test parses the filled body as a browser would)
import { describe, expect, it } from 'vitest';
import {
  attachmentFileNames,
  damageAttachmentName,
  fillMergeFields,
  MERGE_FIELDS,
  reportAttachmentName,
  savedImageAttachmentName,
  unresolvedMessage,
} from './scan-mail';

describe('merge fields', () => {
  it('fill the placeholders that have a value and list the others, each once', () => {
    expect(
      fillMergeFields(
        '<p>{{registration}} at {{ location }} for {{customer_name}}, {{nope}} and {{customer_name}} {{<strong>make</strong>}}</p>',
        { registration: '1AB2CD', location: 'Depot', customer_name: null, make: 'Mazda' },
        'html',
      ),
    ).toEqual({
      text: '<p>1AB2CD at Depot for {{customer_name}}, {{nope}} and {{customer_name}} Mazda</p>',
      unresolved: ['{{customer_name}}', '{{nope}}'],
    });
    expect(unresolvedMessage('Message', ['{{a}}', '{{b}}'])).toBe('Message has placeholders this scan cannot fill: {{a}}, {{b}}');
  });

  it('escape every value filled into a template body as HTML, and none filled into a subject', () => {
    const values = {
      make: '<a href="https://evil.example/login">Renew your rego</a>',
      model: `Q7 & "S" <img src=x onerror=alert(1)> 'x'`,
      registration: '1AB2CD',
    };
    const body = fillMergeFields('<p>Your {{make}} {{model}} ({{registration}})</p>', values, 'html').text;
    expect(body).toBe(
      '<p>Your &lt;a href=&quot;https://evil.example/login&quot;&gt;Renew your rego&lt;/a&gt; ' +
        'Q7 &amp; &quot;S&quot; &lt;img src=x onerror=alert(1)&gt; &#39;x&#39; (1AB2CD)</p>',
    );
    // Parsed as HTML, the values are text: no link, no image.
    const doc = new DOMParser().parseFromString(body, 'text/html');
    expect(doc.querySelectorAll('a, img')).toHaveLength(0);
    expect(doc.body.textContent).toBe(`Your ${values.make} ${values.model} (1AB2CD)`);
    expect(fillMergeFields('Scan of {{make}}', { make: 'A & B <C>' }, 'text').text).toBe('Scan of A & B <C>');
  });

  it('are named once, described in both languages, with an example', () => {
    const names = MERGE_FIELDS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of MERGE_FIELDS) {
      expect(f.name).toMatch(/^[a-z_]+$/);
      expect(f.description.en && f.description.ja && f.example).toBeTruthy();
    }
  });
});

describe('attachment names', () => {
  it('read as people write them, unique when two would be equal', () => {
    expect(damageAttachmentName('Right C Pillar', 'dents', 'HEAVY')).toBe('Right C Pillar – heavy dent');
    expect(damageAttachmentName('Bonnet', 'scratchs', 'light')).toBe('Bonnet – light scratch');
    expect(reportAttachmentName('View Scan Report', 'ABC123')).toBe('Scan Report – ABC123');
    expect(reportAttachmentName('Customer Portal PDF', null)).toBe('Customer Portal PDF');
    expect(savedImageAttachmentName(2)).toBe('Saved image 2');
    expect(savedImageAttachmentName(1, true)).toBe('Vehicle photo');
    expect(
      attachmentFileNames([
        { name: 'Right C Pillar – heavy dent', extension: 'JPG' },
        { name: 'Right C Pillar – heavy dent', extension: 'jpg' },
        { name: 'right c pillar – heavy dent', extension: 'jpg' },
        { name: 'A/B: "x"', extension: 'pdf' },
      ]),
    ).toEqual([
      'Right C Pillar – heavy dent.jpg',
      'Right C Pillar – heavy dent (2).jpg',
      'right c pillar – heavy dent (3).jpg',
      'A-B- -x-.pdf',
    ]);
  });
});
