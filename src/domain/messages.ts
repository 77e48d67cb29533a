/**
 * The rule messages. Each rule says its message twice over: the English text the wire
 * contract carries (`{error: {name: 'Name is required'}}`) and a message key with its parameters
 * (`app.validation.required`), which the server sends beside the text (`messages`, see
 * server/plugins/errors.ts) and the browser translates in the user's language, the field label being
 * the screen's own. Re-exported by ./fields.
 */
export type MessageParams = Record<string, string | number>;

/** A rule message's key: an i18n key of src/i18n, and its parameters other than the field label. */
export interface MessageKey {
  key: string;
  params?: MessageParams;
}

// Texts are made from labels and limits written in the code, so this stays small; the cap guards
// against a rule ever being fed a caller's text.
const KEYS = new Map<string, MessageKey>();
const KEYS_MAX = 5000;

/** The English text of a rule, remembered with its key so `messageKeyOf(text)` finds it again exactly. */
export function keyed(text: string, key: string, params?: MessageParams): string {
  if (!KEYS.has(text) && KEYS.size < KEYS_MAX) KEYS.set(text, params ? { key, params } : { key });
  return text;
}

/** The key of a message made by a domain rule, or undefined for any other text (which then shows as it is). */
export const messageKeyOf = (text: string): MessageKey | undefined => KEYS.get(text);

/** What a user's change refused by `superAdminTarget` or `accessExceeds` was, as the English text says it. */
const USER_ACTIONS = { edit: 'edit', delete: 'delete', api_key: 'generate an API key for' } as const;
export type UserAction = keyof typeof USER_ACTIONS;

export const messages = {
  required: (label: string) => keyed(`${label} is required`, 'app.validation.required'),
  email: () => keyed('Enter a valid email address', 'app.validation.email'),
  match: (label: string) => keyed(`${label} does not match`, 'app.validation.match'),
  /** 'greater than zero' is the spec's word for a whole number of at least 1; a decimal (a price) says 'at least 1'. */
  min: (label: string, min: number, whole = true) =>
    min <= 0
      ? keyed(`${label} must be greater than or equal to ${min}`, 'app.validation.min', { min })
      : min === 1 && whole
        ? keyed(`${label} must be greater than zero`, 'app.validation.greater_than_zero')
        : keyed(`${label} must be at least ${min}`, 'app.validation.at_least', { min }),
  minLength: (label: string, min: number) => keyed(`${label} must be at least ${min} characters`, 'app.validation.min_length', { min }),
  max: (label: string, max: number) => keyed(`${label} must be less than ${max}`, 'app.validation.max', { max }),
  atMost: (label: string, max: number) => keyed(`${label} must be at most ${max}`, 'app.validation.at_most', { max }),
  maxLength: (label: string, max: number) => keyed(`${label} must be at most ${max} characters`, 'app.validation.max_length', { max }),
  minItems: (label: string, min: number) => keyed(`${label} must hold at least ${min} items`, 'app.validation.min_items', { min }),
  maxItems: (label: string, max: number) => keyed(`${label} may hold at most ${max} items`, 'app.validation.max_items', { max }),
  integer: (label: string) => keyed(`${label} must be a whole number`, 'app.validation.integer'),
  url: (label: string) => keyed(`${label} must be a valid URL`, 'app.validation.url'),
  publicAddress: (label: string) =>
    keyed(`${label} must be a public address, not this server or a private network`, 'app.validation.public_address'),
  /** A device placed at another agent's site (a site without an agent suits any owner). */
  siteOfOwner: (label: string) => keyed(`${label} must be a site of the chosen owner`, 'app.validation.site_of_owner'),
  color: (label: string, example: string) => keyed(`${label} must be a colour like ${example}`, 'app.validation.color', { example }),
  digits: (label: string, digits: number) => keyed(`${label} must be exactly ${digits} digits`, 'app.validation.digits', { digits }),
  permissionName: (label: string) =>
    keyed(
      `${label} may only contain lower-case letters, digits and underscores, starting with a letter`,
      'resources.permissions.validation.name_format',
    ),
  /** A unique column's value another row holds (server only). */
  taken: (label: string) => keyed(`${label} has already been taken.`, 'app.validation.taken'),
  nul: (label: string) => keyed(`${label} must not contain a NUL character`, 'app.validation.nul'),
  lineBreak: (label: string) => keyed(`${label} must be a single line`, 'app.validation.line_break'),
  control: (label: string) => keyed(`${label} must not contain control characters`, 'app.validation.control'),
  currentPassword: () => keyed('The current password is incorrect.', 'app.validation.current_password'),
  /** A delete refused because other records still use the row (a foreign key): `model` is the resource's ('PanelGroup'). */
  inUse: (model: string) =>
    keyed(
      `This ${model.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase()} is still in use: change or remove what uses it first.`,
      'app.errors.in_use',
    ),
  /** A built-in role or permission, which the access model needs (the screens offer no delete for one). */
  builtInRole: (name: string) => keyed(`The ${name} role cannot be deleted.`, 'app.errors.built_in_role', { name }),
  builtInPermission: (name: string) => keyed(`The ${name} permission cannot be deleted.`, 'app.errors.built_in_permission', { name }),
  /** A template's placeholders no mail fills (`{{foo}}`). */
  unknownMergeFields: (placeholders: string[]) =>
    keyed(`Template Body uses merge fields no mail fills: ${placeholders.join(', ')}`, 'app.validation.unknown_merge_fields', {
      fields: placeholders.join(', '),
    }),
  /** A part still pricing panels cannot be deleted: its prices would leave every client's matrix with it. */
  partInUse: (panels: string[]) =>
    keyed(`This part prices these panels: ${panels.join(', ')}. Give them another part first.`, 'app.errors.part_in_use', {
      panels: panels.join(', '),
    }),
  /** A user's agents (clients) sent without the Agent (Client) role that they scope. */
  scopeWithoutRole: (label: string, role: string) =>
    keyed(`${label} apply only to a user with the ${role} role`, 'app.validation.scope_without_role', { role }),
  invalid: (label: string) => keyed(`${label} is invalid`, 'app.validation.invalid'),
  choice: (label: string) => keyed(`The selected ${label.toLowerCase()} is invalid`, 'app.validation.choice'),
  /** A value of the wrong JSON type (a list where text belongs, …). */
  type: (label: string, expected: 'a string' | 'a number' | 'an id' | 'a list' | 'true or false') =>
    keyed(`${label} must be ${expected}`, `app.validation.type_${TYPE_KEYS[expected]}`),
  // Rules only the server can check (server only), so a Japanese screen shows them in Japanese too.
  credentials: () => keyed('These credentials do not match our records.', 'app.validation.credentials'),
  resetToken: () => keyed('This password reset token is invalid or has expired.', 'app.validation.reset_token'),
  pincode: () => keyed('Pincode does not match', 'app.validation.pincode'),
  imageFile: (label: string) => keyed(`${label} must be an image file`, 'app.validation.image_file'),
  imageType: (label: string) => keyed(`${label} must be a PNG, JPEG, WebP or SVG image`, 'app.validation.image_type'),
  photoType: (label: string) => keyed(`${label} must be a PNG, JPEG or WebP image`, 'app.validation.photo_type'),
  imageInvalid: (label: string) => keyed(`${label} is not a valid image`, 'app.validation.image_invalid'),
  fileSize: (label: string, mb: number) => keyed(`${label} must be less than ${mb} MB`, 'app.validation.file_size', { mb }),
  imagePixels: (label: string, megapixels: number) =>
    keyed(`${label} must be less than ${megapixels} megapixels`, 'app.validation.image_pixels', { megapixels }),
  uploadQuota: (mb: number, whose: string) =>
    keyed(`The upload quota of ${mb} MB ${whose} is used up. Delete files or ask for a larger quota.`, 'app.validation.upload_quota', {
      mb,
      whose,
    }),
  ownPassword: () => keyed('Change your own password on the Update Profile page.', 'app.validation.own_password'),
  othersPassword: () => keyed("Only a Super Admin may set another user's password.", 'app.validation.others_password'),
  othersEmail: () => keyed("Only a Super Admin may change a user's e-mail here.", 'app.validation.others_email'),
  grantSuperAdmin: () => keyed('Only a Super Admin may assign the Super Admin role.', 'app.validation.grant_super_admin'),
  keepSuperAdmin: () => keyed('You cannot remove the Super Admin role from yourself.', 'app.validation.keep_super_admin'),
  ownRoles: () => keyed('You cannot change your own roles.', 'app.validation.own_roles'),
  rolesHeld: () => keyed('You may only assign roles you hold.', 'app.validation.roles_held'),
  scopeWithin: () => keyed('With these roles the user would see data you cannot see.', 'app.validation.scope_within'),
  permissionsHeld: () => keyed('You may only grant permissions you hold.', 'app.validation.permissions_held'),
  superAdminPermissions: () => keyed('The Super Admin role holds every permission.', 'app.validation.super_admin_permissions'),
  /** An update made from a copy of a record someone has saved since (If-Match). */
  savedSince: () =>
    keyed(
      'Someone else saved this record after you opened it. Reload the page to see their changes, then make yours again.',
      'app.errors.saved_since',
    ),
  // Impersonation's refusals (403), which an API caller reads; the app itself says 'Failed to impersonate user'.
  impersonatingAlready: () => keyed('You are already impersonating a user; leave impersonation first.', 'app.errors.impersonating_already'),
  impersonateSuperAdminOnly: () => keyed('Only a Super Admin may impersonate a user.', 'app.errors.impersonate_super_admin_only'),
  impersonateSelf: () => keyed('You cannot impersonate yourself.', 'app.errors.impersonate_self'),
  impersonateSuperAdmin: () => keyed('You cannot impersonate another Super Admin.', 'app.errors.impersonate_super_admin'),
  notImpersonating: () => keyed('You are not impersonating anyone.', 'app.errors.not_impersonating'),
  impersonationOfAnother: () => keyed('This impersonation was not started by that user.', 'app.errors.impersonation_of_another'),
  consentOwn: () => keyed('Only the user can accept the terms, not an impersonating admin.', 'app.errors.consent_own'),
  // Refusals of a change to a user (403): the screens do not offer these actions, an API caller or a stale screen meets them.
  ownAccount: () => keyed('You cannot delete your own account.', 'app.errors.own_account'),
  superAdminTarget: (action: UserAction) =>
    keyed(`Only a Super Admin may ${USER_ACTIONS[action]} a Super Admin.`, `app.errors.super_admin_target.${action}`),
  accessExceeds: (action: UserAction) =>
    keyed(`You may not ${USER_ACTIONS[action]} a user whose access exceeds yours.`, `app.errors.access_exceeds.${action}`),
  fixedName: (what: 'role' | 'permission', name: string) =>
    keyed(`The ${name} ${what} cannot be renamed.`, `app.validation.fixed_${what}_name`, { name }),
};

const TYPE_KEYS = { 'a string': 'string', 'a number': 'number', 'an id': 'id', 'a list': 'list', 'true or false': 'boolean' } as const;
