-- The approval mail in the agent's language: a Japanese agent's customers get the mail in Japanese, as the page it
-- links to. Installations that already hold a template of this name keep theirs.
insert into email_templates (template_name, template_body)
select 'Quote approval request (Japanese)',
  '<p>{{registration}}（{{make}} {{model}}、{{client_name}}）の見積 {{quote_number}} の合計は {{grand_total}} です。</p>'
  || '<p>内容をご確認のうえ、明細ごとに承認または辞退を選び、こちらから署名してください: '
  || '<a href="{{approval_link}}">{{approval_link}}</a></p><p>このリンクは {{expires_on}} まで有効です。</p>'
  || '<p>{{agent_name}}<br>{{agent_email}} {{agent_phone}}</p>'
where not exists (select 1 from email_templates where template_name = 'Quote approval request (Japanese)');
