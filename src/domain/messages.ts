/**
 * The rule messages of spec 1 §5, in English as the server sends them; the browser translates them
 * (src/components/ruleMessages.ts). Re-exported by ./fields.
 */
export const messages = {
  required: (label: string) => `${label} is required`,
  email: () => 'Enter a valid email address',
  min: (label: string, min: number) =>
    min <= 0
      ? `${label} must be greater than or equal to ${min}`
      : min === 1
        ? `${label} must be greater than zero`
        : `${label} must be at least ${min}`,
  max: (label: string, max: number) => `${label} must be less than ${max}`,
  invalid: (label: string) => `${label} is invalid`,
  choice: (label: string) => `The selected ${label.toLowerCase()} is invalid`,
};
