/**
 * Shapes of the merged configuration bundle (GET /api/ui/config) as the runtime reads it.
 * They mirror schemas/meta; the meta-schemas stay the source of truth and the server has already
 * validated every file against them, so the runtime does not validate again.
 */
import type { Condition } from '../../core/conditions';
import type { FormatKind } from '../../core/format-kind';

export type I18nKey = string;
export type JsonSchema = Record<string, any>;

export interface ConditionalItem {
  visibleWhen?: Condition;
  hiddenWhen?: Condition;
}

export interface DisablableItem extends ConditionalItem {
  disabledWhen?: Condition;
}

export type { FormatKind };

export interface FieldDecl extends ConditionalItem {
  id: string;
  label?: I18nKey;
  format?: FormatKind;
  /** i18n key prefix that turns a coded value into its label, e.g. "app:roles". */
  valueLabels?: I18nKey;
  colorField?: string;
}

export type ActionDecl =
  | { kind: 'navigate'; to: string }
  | { kind: 'openDialog'; screen: string; idField?: string };

/* ---- screens ---- */

export interface SessionGateDecl {
  id: string;
  screen: string;
  when?: Condition;
  reopenOnErrorCode?: string;
}

export interface AppSettings {
  type: 'app';
  name: string;
  loginAppName: string;
  config: Record<string, unknown>;
  footer?: { copyright?: I18nKey };
  sessionGates?: SessionGateDecl[];
}

export interface MenuItemDecl extends ConditionalItem {
  id: string;
  label?: I18nKey;
  route: string;
  icon?: string;
}

export interface MenuGroupDecl extends ConditionalItem {
  id: string;
  label?: I18nKey;
  items: MenuItemDecl[];
}

export interface MenuDecl {
  type: 'menu';
  width?: number;
  breakpoint?: number;
  groups: MenuGroupDecl[];
}

export interface RouteDecl {
  id: string;
  path: string;
  title?: I18nKey;
  screen?: string;
  screens?: { screen: string; when?: Condition }[];
  redirect?: string;
  action?: 'signOut';
  public?: boolean;
  guestOnly?: boolean;
  modal?: boolean;
  allowedWhen?: Condition;
  /** Help text of the page, opened from the top bar's help button. */
  help?: I18nKey;
}

export interface RoutesDecl {
  type: 'routes';
  landing: string;
  /** Path of the sign-in page (a guest is sent there; signing out ends there). */
  signIn: string;
  routes: RouteDecl[];
}

export interface FormFieldDecl extends DisablableItem {
  id: string;
  label?: I18nKey;
  widget?: 'text' | 'password' | 'radio' | 'select' | 'checkbox' | 'textarea' | 'date' | 'dateTime' | 'money' | 'mileage' | 'phone' | 'postcode' | 'newPassword';
  options?: { value: unknown; label: I18nKey }[];
  autocomplete?: string;
  upperCase?: boolean;
  help?: I18nKey;
  /** Shown and checked but not sent (the repeated password). */
  formOnly?: boolean;
  /** Must equal that field. */
  sameAs?: string;
  /** The value is one of the user's own words a new password must not resemble (the strength meter's user inputs). */
  userInput?: boolean;
  /** Takes a value when another field changes to a listed value. */
  followValue?: { field: string; values: Record<string, unknown> };
}

export interface DialogLinkDecl {
  id: string;
  label: I18nKey;
  dialog: string;
}

export interface LoginScreenDecl {
  type: 'login';
  title?: I18nKey;
  schema: string;
  submit: { label: I18nKey; endpoint: string };
  fields: FormFieldDecl[];
  links?: DialogLinkDecl[];
  queryDialogs?: Record<string, string>;
  passwordExpiryWarning?: I18nKey;
}

export type FormValueDecl = { const: unknown } | { session: string };

export interface FormScreenDecl {
  type: 'form';
  title: I18nKey;
  intro?: I18nKey;
  schema: string;
  fields: FormFieldDecl[];
  values?: Record<string, FormValueDecl>;
  submit: { label: I18nKey; endpoint: string; method?: 'POST' | 'PUT' };
  errorsAs?: 'inline' | 'toast';
  onSuccess?: {
    toast?: I18nKey;
    toastFromResponse?: boolean;
    statement?: boolean;
    sessionUserFrom?: string;
    sessionPatch?: Record<string, unknown>;
    openDialog?: string;
    navigate?: string;
    close?: boolean;
  };
  links?: DialogLinkDecl[];
  signOut?: I18nKey;
  static?: boolean;
  load?: { endpoint: string };
  actions?: { id: string; label: I18nKey; endpoint: string; method?: 'POST' | 'PUT'; okWhen?: Condition }[];
}

export interface TermsDialogDecl {
  type: 'terms-dialog';
  title: I18nKey;
  status: string;
  next: { endpoint: string; timeoutMs: number; templateHeader?: string };
  accept: { endpoint: string };
  scale: number;
  texts: Record<
    'loading' | 'loadFailed' | 'checkbox' | 'checkboxRequired' | 'accept' | 'signOut' | 'statusFailed' | 'acceptFailed' | 'progress' | 'retry' | 'download',
    I18nKey
  >;
}

export interface ActionScreenDecl {
  type: 'action';
  title: I18nKey;
  call: { method?: 'GET' | 'POST'; endpoint: string };
  running: I18nKey;
  failure: I18nKey;
  success?: I18nKey;
  then?: { back?: boolean; reloadAfterMs?: number };
}

export interface PasswordPolicyDecl {
  type: 'password-policy';
  title: I18nKey;
  intro?: I18nKey;
  rules: { policy: string; text: I18nKey }[];
  paragraphs?: I18nKey[];
}

export type Tone = 'primary' | 'secondary' | 'success' | 'warning' | 'danger' | 'info';

export interface IconDecl {
  icon?: string;
  text?: I18nKey;
  label: I18nKey;
  tone?: Tone;
}

/** One of the buttons of a `files` cell (one file, several, none). */
export interface FilesButtonDecl {
  text: I18nKey;
  /** Accessible name and tooltip; may name the row's fields ({{faktNrCaly}}). */
  label?: I18nKey;
  icon?: string;
  tone?: Tone;
}

/** A column whose value is how many files a row has; opens them through one-time download tokens. */
export interface FilesCellDecl {
  type: 'files';
  link: { endpoint: string; idField: string; bodyField?: string };
  files: { id: string; path: string; label: I18nKey; icon?: string }[];
  one: FilesButtonDecl;
  many: FilesButtonDecl;
  none: FilesButtonDecl;
  dialog: { title: I18nKey; intro?: I18nKey };
}

/** A cell renderer registered by name (runtime/src/screens/table/cells). */
export type CellDecl = { type: 'icon'; icons: Record<string, IconDecl> } | FilesCellDecl;

export interface ColumnDecl extends ConditionalItem {
  id: string;
  /** Entity field shown, sorted and filtered on; defaults to id. */
  field?: string;
  header?: I18nKey;
  headerTooltip?: I18nKey;
  format?: FormatKind;
  cell?: CellDecl;
  highlight?: { when: Condition; tone?: Tone };
  filter?: 'auto' | 'plain';
  /** i18n key prefix that turns a coded value into its label, e.g. "app:roles". */
  valueLabels?: I18nKey;
  width?: number;
  /** The narrowest the column may be (a key identifier the schema does not measure). */
  minWidth?: number;
  pinned?: 'left' | 'right';
  hide?: boolean;
  sortable?: boolean;
  filterable?: boolean;
}

export interface PresetFilterDecl {
  label?: I18nKey;
  default: string;
  options: { id: string; label: I18nKey; filterModel?: Record<string, unknown> }[];
}

export interface TableScreenDecl {
  type: 'table';
  title?: I18nKey;
  /** Help text under the title. */
  help?: I18nKey;
  resource: string;
  entity: string;
  stateKey?: string;
  savedSettings?: boolean;
  onRowClick?: ActionDecl;
  /** rowParams.group of an embedded table (which kind of parent it lists). */
  group?: string;
  presetFilter?: PresetFilterDecl;
  /** Toolbar export: xlsx through the resource's excel endpoints, csv written in the browser. */
  export?: 'xlsx' | 'csv';
  columns: ColumnDecl[];
}

export interface SectionDecl extends ConditionalItem {
  id: string;
  label?: I18nKey;
  fields: FieldDecl[];
}

export interface TabDecl extends DisablableItem {
  id: string;
  label: I18nKey;
  sections?: SectionDecl[];
  table?: { screen: string; srcField: string };
}

export interface DetailsDialogDecl {
  type: 'details-dialog';
  title?: I18nKey;
  titleField?: string;
  entity: string;
  load: { endpoint: string };
  tabs: TabDecl[];
}

export interface PanelActionDecl extends DisablableItem {
  id: string;
  label: I18nKey;
  icon?: string;
  kind: 'navigate' | 'openDialog';
  to?: string;
  screen?: string;
}

export interface PanelDecl extends ConditionalItem {
  id: string;
  label: I18nKey;
  fields?: FieldDecl[];
  actions?: PanelActionDecl[];
}

export interface PanelSetDecl {
  type: 'panel-set';
  title?: I18nKey;
  entity: string;
  load: { endpoint: string };
  panels: PanelDecl[];
}

export interface PageDecl {
  type: 'page';
  title: I18nKey;
  paragraphs?: I18nKey[];
}

/** Screens the registry can render (the closed set of spec-visible types). */
export type RenderableScreen =
  | LoginScreenDecl
  | TableScreenDecl
  | DetailsDialogDecl
  | PanelSetDecl
  | PageDecl
  | FormScreenDecl
  | TermsDialogDecl
  | ActionScreenDecl
  | PasswordPolicyDecl;
export type ScreenType = RenderableScreen['type'];

export type AnyScreen = RenderableScreen | MenuDecl | RoutesDecl | AppSettings | { type: string; [key: string]: unknown };

export interface Bundle {
  version: string;
  variant: string;
  config: Record<string, unknown>;
  app: AppSettings;
  screens: Record<string, AnyScreen>;
  schemas: Record<string, JsonSchema>;
  conditions: Record<string, unknown>;
  locales: { pl: Record<string, Record<string, unknown>> };
}

/* ---- API shapes ---- */

export interface CompatibilityMessage {
  initError: string;
  current?: string | null;
  required?: string | null;
  initializationBlocking: boolean;
}

export interface PreConfig {
  name: string;
  loginAppName: string;
  compatibility: CompatibilityMessage[];
  [key: string]: unknown;
}

export type RoleName = 'USER' | 'ADVISOR' | 'MANAGER' | 'ADMIN' | 'UNKNOWN';

export interface UserDetails {
  login: string;
  username?: string;
  firstName?: string | null;
  lastName?: string | null;
  rola: RoleName;
  firstLogin: boolean;
  [key: string]: unknown;
}

export interface Session {
  token: string;
  user: UserDetails;
  postConfig?: { logicConfig?: Record<string, unknown> };
  /** Session gates (screens/app.json sessionGates) this session has got through. */
  gatesPassed?: string[];
}
