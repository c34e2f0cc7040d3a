/**
 * A file of screens/ read through its generated type (runtime/core/generated/meta.ts, `npm run
 * gen`). The loader checked every file against its meta-schema, so a file whose `type` says
 * `routes` has the shape of RoutesFile: this is the one place that says so to the compiler.
 */
import type {
  AppFile, DetailsDialogFile, FuelAnomaliesFile, InspectionsFile, LoginFile, MenuFile, NotificationsFile, RemindersFile, RoutesFile, TableFile, WebhooksFile,
} from '../../runtime/core/generated/meta.ts';
import type { Screen } from './bundle.ts';

/** The generated type of each kind of screen file the server reads by its keys. */
export interface ScreenFiles {
  app: AppFile;
  routes: RoutesFile;
  menu: MenuFile;
  login: LoginFile;
  table: TableFile;
  'details-dialog': DetailsDialogFile;
  reminders: RemindersFile;
  notifications: NotificationsFile;
  webhooks: WebhooksFile;
  'fuel-anomalies': FuelAnomaliesFile;
  inspections: InspectionsFile;
}

/** The screen as its type's file, or undefined when it is absent or of another type. */
export function fileOfType<K extends keyof ScreenFiles>(screen: Screen | undefined, type: K): ScreenFiles[K] | undefined {
  return screen?.type === type ? (screen as unknown as ScreenFiles[K]) : undefined;
}
