/**
 * The shapes of the merged configuration (types only, no code): what loadBundle returns and what
 * the cross-check, the row scopes and the routes read. A module of its own so that none of them
 * has to import the loader (which imports them).
 */
export interface ConfigProblem {
  file: string;
  pointer: string;
  reason: string;
}

export type Screen = Record<string, any> & { type: string };

export interface ResourceDecl {
  resource: string;
  entity: string;
  source: string;
  key: string;
  srcColumn?: string;
  /** Column that rowParams.group filters on. */
  groupColumn?: string;
  byId?: boolean;
  /** Offers POST /<resource>/excel/prepare and GET /<resource>/excel/download. */
  excelExport?: boolean;
  /** Grows with the fleet: every sortable column must have an index per scope (table-indexes.test.ts). */
  large?: boolean;
  /** More POST paths /api/<resource>/<alias> answering like /table. */
  listAliases?: string[];
  defaultSort?: { colId: string; sort: 'asc' | 'desc' }[];
  /** Row scope per role; absent when the resource takes its parents' scope (parentScope). */
  access?: Partial<Record<'ADMIN' | 'MANAGER' | 'USER' | 'ADVISOR', RowScope>>;
  scopeColumns?: Partial<Record<'client' | 'ownVehicle' | 'station' | 'self', string>>;
  /** Rows belong to records of other resources and take their scope (note, attachment). */
  /** Rules of the resource's domain calls (orders: editable fields, hidden prices, locks, transitions). */
  rules?: ResourceRules;
  parentScope?: {
    typeColumn: string;
    idColumn: string;
    /** Value of typeColumn → parent resource name. */
    parents: Record<string, string>;
  };
}

/** A condition of the configuration (runtime/core/conditions.ts): a JSON Schema over the context. */
export type ConditionDecl = boolean | Record<string, unknown>;

/** A move of a record's status declared in `rules.transitions` (the approval workflow). */
export interface TransitionDecl {
  id: string;
  from: number[];
  to: number;
  roles: ('ADMIN' | 'MANAGER' | 'USER' | 'ADVISOR')[];
  when?: ConditionDecl;
  /** Text key of the button. */
  label: string;
}

/** Write and read rules of a resource's domain calls (schemas/meta/resource.schema.json "rules"). */
export interface ResourceRules {
  editableWhen?: Record<string, ConditionDecl>;
  hiddenWhen?: Record<string, ConditionDecl>;
  ownVehicleWhen?: ConditionDecl;
  ownStationWhen?: ConditionDecl;
  confirmPricingWhen?: ConditionDecl;
  authoriseOnCreateWhen?: ConditionDecl;
  positionsLockedWhen?: ConditionDecl;
  transitions?: TransitionDecl[];
}

export type RowScope = 'all' | 'client' | 'ownVehicle' | 'ownVehicleClient' | 'station' | 'self';

export interface Bundle {
  version: string;
  variant: string;
  app: Record<string, any>;
  config: Record<string, unknown>;
  screens: Record<string, Screen>;
  /** Entity and API schemas by $id. */
  schemas: Record<string, Record<string, any>>;
  resources: Record<string, ResourceDecl>;
  conditions: Record<string, unknown>;
  locales: { pl: Record<string, Record<string, unknown>> };
  etag: string;
}

export interface LoadOptions {
  root: string;
  variant?: string;
  version?: string;
}
