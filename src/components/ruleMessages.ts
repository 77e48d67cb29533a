// The kit's name for a rule message translation, used by the resource forms; the messages themselves live in src/i18n.
export { translatableRule } from '../i18n/ruleMessages';
