/**
 * The configuration bundle (GET /api/ui/config) and the session as the runtime reads them. Every
 * shape of a configuration file or an API body is GENERATED from its schema
 * (runtime/core/generated/, `npm run gen`); this module only gives the runtime's names to those
 * types and to their parts (a route of the routes file, a column of a table), and declares the
 * two shapes no schema describes: the bundle as a whole and the session kept in the browser.
 */
import type { PreConfig as PreConfigBody, UserDetails as UserDetailsBody } from '../../core/generated/api';
import type {
  ActionFile, AppFile, DetailsDialogFile, FormFieldFile, FormFile, LoginFile, MenuFile, PageFile, PanelSetFile,
  PasswordPolicyFile, FormDialogFile, RoutesFile, TableFile, TermsDialogFile, WizardFile, ButtonModalFile, DashboardFile,
} from '../../core/generated/meta';

export type { FormatKind } from '../../core/format-kind';
export type { Action as ActionDecl, Field as FieldDecl, FilesButton as FilesButtonDecl, I18NKey as I18nKey, Tone } from '../../core/generated/meta';

export type JsonSchema = Record<string, any>;

/* ---- screen files, by type ---- */
export type AppSettings = AppFile;
export type MenuDecl = MenuFile;
export type RoutesDecl = RoutesFile;
export type LoginScreenDecl = LoginFile;
export type FormScreenDecl = FormFile;
export type TableScreenDecl = TableFile;
export type DetailsDialogDecl = DetailsDialogFile;
export type PanelSetDecl = PanelSetFile;
export type PageDecl = PageFile;
export type TermsDialogDecl = TermsDialogFile;
export type ActionScreenDecl = ActionFile;
export type PasswordPolicyDecl = PasswordPolicyFile;
export type FormDialogDecl = FormDialogFile;
export type FormDialogModeDecl = NonNullable<FormDialogFile['modes']['create']>;
export type FormDialogButtonDecl = NonNullable<FormDialogFile['buttons']>[number];
export type ToolbarActionDecl = NonNullable<TableFile['toolbarActions']>[number];
export type FormFieldDecl = FormFieldFile;
export type WizardDecl = WizardFile;
export type WizardStepDecl = WizardFile['steps'][number];
export type ButtonModalDecl = ButtonModalFile;
export type DashboardDecl = DashboardFile;

/* ---- their parts ---- */
export type SessionGateDecl = NonNullable<AppFile['sessionGates']>[number];
export type MenuGroupDecl = MenuFile['groups'][number];
export type MenuItemDecl = MenuGroupDecl['items'][number];
export type RouteDecl = RoutesFile['routes'][number];
export type ColumnDecl = TableFile['columns'][number];
export type PresetFilterDecl = NonNullable<TableFile['presetFilter']>;
export type FilesCellDecl = Extract<NonNullable<ColumnDecl['cell']>, { type: 'files' }>;
export type TabDecl = DetailsDialogFile['tabs'][number];
export type PanelActionDecl = NonNullable<PanelSetFile['panels'][number]['actions']>[number];
export type FormValueDecl = NonNullable<FormFile['values']>[string];
export type DialogLinkDecl = NonNullable<FormFile['links']>[number];
export type DashboardSectionDecl = DashboardFile['sections'][number];

/** Screens the registry can render (the closed set of spec-visible types, runtime/core/screen-checks/screen-types.ts). */
export type RenderableScreen =
  | LoginScreenDecl | TableScreenDecl | DetailsDialogDecl | PanelSetDecl | PageDecl | FormScreenDecl
  | TermsDialogDecl | ActionScreenDecl | PasswordPolicyDecl | FormDialogDecl | WizardDecl | ButtonModalDecl | DashboardDecl;
export type ScreenType = RenderableScreen['type'];

export type AnyScreen = RenderableScreen | MenuDecl | RoutesDecl | AppSettings | { type: string; [key: string]: unknown };

/** GET /api/ui/config: the merged configuration (server/config/load-bundle.ts builds it). */
export interface Bundle {
  version: string;
  variant: string;
  config: Record<string, unknown>;
  app: AppSettings;
  screens: Record<string, AnyScreen>;
  schemas: Record<string, JsonSchema>;
  conditions: Record<string, unknown>;
  /** The texts of `language` alone (issue 48), by namespace. */
  locales: Record<string, Record<string, Record<string, unknown>>>;
  /** The language the texts are in: the caller's (server/config/languages.ts). */
  language?: string;
  /** The languages offered, the default first, each by its own name (the sign-in page's and Ustawienia → Język's choice). */
  languages?: { id: string; name: string; locale: string }[];
  /** The role whose part of the configuration this is (issue 47: sent after sign-in); none in a visitor's whole bundle or a preview. */
  role?: RoleName;
}

/* ---- API shapes ---- */
export type PreConfig = PreConfigBody & { [key: string]: unknown };
export type CompatibilityMessage = PreConfig['compatibility'][number];
export type UserDetails = UserDetailsBody & { [key: string]: unknown };
export type RoleName = UserDetails['rola'];

/** The signed-in session the browser keeps (sessionStorage portal.session). */
export interface Session {
  token: string;
  user: UserDetails;
  /** `variant`: the client variant serving this user (the server's choice by the user's client). */
  postConfig?: { variant?: string; logicConfig?: Record<string, unknown> };
  /** Session gates (screens/app.json sessionGates) this session has got through. */
  gatesPassed?: string[];
}
export type DetailsButtonDecl = NonNullable<DetailsDialogFile['actions']>[number];
export type DetailsListDecl = NonNullable<TabDecl['lists']>[number];
