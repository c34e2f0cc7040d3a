/**
 * Checks across files that a meta-schema alone cannot see: a route naming a missing screen, a
 * column or field its entity lacks, a resource without its entity, a text key missing from
 * locales/pl, a condition that does not compile. Each problem names the file and JSON pointer.
 * The shell files (routes, menu, app) are checked here; each screen type's own checks live in its
 * core module (runtime/core/screen-checks/<type>.ts), listed by runtime/core/screen-checks/screen-types.ts.
 */
import { asCondition, ConditionEvaluator, type Role } from '../../runtime/core/conditions.ts';
import { hasKey, menuGroupKey, menuItemKey } from '../../runtime/core/labels.ts';
import { SCREEN_TYPES } from '../../runtime/core/screen-checks/screen-types.ts';
import { checkReminders } from './reminders-check.ts';
import { checkNotifications } from './notifications-check.ts';
import { checkWebhooks } from './webhooks-check.ts';
import { checkFuelAnomalies } from './fuel-anomalies-check.ts';
import { checkInspections } from './inspections-check.ts';
import type { ConfigProblem, EntitySchema, ResourceDecl, Screen } from './bundle.ts';
import { fileOfType } from './screen-files.ts';

interface Parts {
  screens: Record<string, Screen>;
  schemas: Record<string, EntitySchema>;
  resources: Record<string, ResourceDecl>;
  conditions: Record<string, unknown>;
  locales: Record<string, Record<string, unknown>>;
  /** The variant and its settings, for conditions that depend on them (menu entries, allowed routes). */
  variant?: string;
  config?: Record<string, unknown>;
  /**
   * Told of every text key a file uses, named or by default (a column's header from its entity's
   * field): the configuration studio says where each text is shown with it (server/studio/places.ts).
   */
  onKey?(file: string, pointer: string, key: string): void;
  /**
   * Checking the part of the bundle one role is sent (config/role-view.ts, issue 47): the routes the
   * role cannot open, and the choices it is not shown, name screens it is not sent.
   */
  role?: Role;
}

const ROLES: readonly Role[] = ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'];

const CONDITION_KEYS = new Set(['visibleWhen', 'hiddenWhen', 'disabledWhen', 'when', 'allowedWhen', 'okWhen', 'termsRequiredWhen']);
/** The type-specific checks, one module per screen type (runtime/core/screen-checks/<type>.ts). */
const screenTypeChecks = new Map(SCREEN_TYPES.map((t) => [t.type as string, t.check]));

const TEXT_KEYS = new Set(['label', 'title', 'header', 'copyright', 'help', 'intro', 'text', 'running', 'failure', 'success', 'signOut', 'toast', 'passwordExpiryWarning']);

export function crossCheck(parts: Parts): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const { screens, schemas, resources, locales } = parts;
  const evaluator = new ConditionEvaluator(parts.conditions);
  const screenFile = (id: string) => `screens/${id}.json`;
  const props = (entity: string): Record<string, unknown> | undefined => schemas[entity]?.properties;

  const needKey = (file: string, pointer: string, key: string) => {
    parts.onKey?.(file, pointer, key);
    if (!hasKey(locales, key)) problems.push({ file, pointer, reason: `text key "${key}" is missing from locales/pl` });
  };
  const needScreen = (file: string, pointer: string, id: string) => {
    if (!screens[id]) problems.push({ file, pointer, reason: `screen "${id}" does not exist (no screens/${id}.json)` });
  };
  const needField = (file: string, pointer: string, entity: string, field: string) => {
    const p = props(entity);
    if (!p) problems.push({ file, pointer, reason: `entity schema "${entity}" does not exist` });
    else if (!(field in p)) problems.push({ file, pointer, reason: `field "${field}" is not in the entity schema "${entity}"` });
  };
  /** A column or field with valueLabels needs a text for every value its schema's enum allows. */
  const needValueLabels = (file: string, pointer: string, entity: string, item: { id: string; valueLabels?: string }) => {
    if (!item.valueLabels) return;
    const values = (props(entity)?.[item.id] as EntitySchema | undefined)?.enum ?? [];
    for (const v of values) if (v !== null) needKey(file, `${pointer}/valueLabels`, `${item.valueLabels}.${v}`);
  };

  // Walk every screen: explicit text keys and conditions, wherever they are.
  for (const [id, screen] of Object.entries(screens)) {
    walk(screen, '', (value, pointer, key) => {
      if (key && CONDITION_KEYS.has(key)) {
        try {
          evaluator.compile(asCondition(value));
        } catch (e) {
          problems.push({ file: screenFile(id), pointer, reason: `condition does not compile: ${(e as Error).message}` });
        }
        return false;
      }
      if (key && TEXT_KEYS.has(key) && typeof value === 'string') needKey(screenFile(id), pointer, value);
      if (key === 'paragraphs' && Array.isArray(value)) value.forEach((k, i) => needKey(screenFile(id), `${pointer}/${i}`, k));
      if (key === 'texts' && value && typeof value === 'object') {
        for (const [name, k] of Object.entries(value)) if (typeof k === 'string') needKey(screenFile(id), `${pointer}/${name}`, k);
        return false;
      }
      return true;
    });
  }

  const checkContext = (id: string, file: string) => ({
    id, file, screens, schemas, resources,
    problem: (pointer: string, reason: string) => problems.push({ file, pointer, reason }),
    needKey: (pointer: string, key: string) => needKey(file, pointer, key),
    needScreen: (pointer: string, target: string) => needScreen(file, pointer, target),
    needField: (pointer: string, entity: string, field: string) => needField(file, pointer, entity, field),
    needValueLabels: (pointer: string, entity: string, item: { id: string; valueLabels?: string }) => needValueLabels(file, pointer, entity, item),
  });
  /** Whether a route's or a choice's condition lets the role checked in (always, when no role is). */
  const shownToRole = (condition: unknown) => {
    if (!parts.role || condition === undefined) return true;
    try {
      return evaluator.matches(asCondition(condition), { role: parts.role, variant: parts.variant ?? 'default', config: parts.config ?? {} });
    } catch {
      return true;
    }
  };
  const routePaths = () => new Set((fileOfType(screens.routes, 'routes')?.routes ?? []).map((r) => r.path));
  for (const [id, screen] of Object.entries(screens)) {
    const file = screenFile(id);
    switch (screen.type) {
      case 'routes': {
        const s = fileOfType(screen, 'routes')!;
        s.routes.forEach((r, i) => {
          if (!r.public && !shownToRole(r.allowedWhen)) return;
          if (r.screen) needScreen(file, `/routes/${i}/screen`, r.screen);
          (r.screens ?? []).forEach((c, j) => {
            if (!shownToRole(c.when)) return;
            needScreen(file, `/routes/${i}/screens/${j}/screen`, c.screen);
            // the screens shown above and below the chosen one (the cockpit's strip, a driver's to-do)
            for (const side of ['before', 'after'] as const) {
              (c[side] ?? []).forEach((x, k) => shownToRole(x.when) && needScreen(file, `/routes/${i}/screens/${j}/${side}/${k}/screen`, x.screen));
            }
          });
        });
        // the runtime sends guests to signIn and signs out through the signOut route, by these names only
        const signIn = s.routes.find((r) => r.path === s.signIn);
        if (!signIn) problems.push({ file, pointer: '/signIn', reason: `"${s.signIn}" is not the path of a route` });
        else if (!signIn.public) problems.push({ file, pointer: '/signIn', reason: `route "${signIn.id}" must be public to be the sign-in page` });
        const signOuts = s.routes.filter((r) => r.action === 'signOut').length;
        if (signOuts !== 1) problems.push({ file, pointer: '/routes', reason: `exactly one route must have "action": "signOut" (found ${signOuts})` });
        break;
      }
      case 'menu': {
        const s = fileOfType(screen, 'menu')!;
        const paths = routePaths();
        s.groups.forEach((g, i) => {
          if (!g.label) needKey(file, `/groups/${i}`, menuGroupKey(g.id));
          g.items.forEach((it, j) => {
            if (!it.label) needKey(file, `/groups/${i}/items/${j}`, menuItemKey(it.id));
            if (!paths.has(it.route)) problems.push({ file, pointer: `/groups/${i}/items/${j}/route`, reason: `route "${it.route}" is not in screens/routes.json` });
          });
        });
        break;
      }
      case 'app': {
        const s = fileOfType(screen, 'app')!;
        (s.sessionGates ?? []).forEach((g, i) => needScreen(file, `/sessionGates/${i}/screen`, g.screen));
        // the locale and time zone every date and number is written in (runtime/src/format.ts, the Excel export)
        const { locale, timeZone } = s.config ?? {};
        if (typeof locale === 'string' && !Intl.NumberFormat.supportedLocalesOf(locale).length) problems.push({ file, pointer: '/config/locale', reason: `"${locale}" is not a locale this platform knows` });
        // each language's locale too, and a language named once (issue 48)
        const seen = new Set<string>();
        ((s.config?.languages ?? []) as { id: string; locale: string }[]).forEach((l, i) => {
          if (!Intl.NumberFormat.supportedLocalesOf(l.locale).length) problems.push({ file, pointer: `/config/languages/${i}/locale`, reason: `"${l.locale}" is not a locale this platform knows` });
          if (seen.has(l.id)) problems.push({ file, pointer: `/config/languages/${i}/id`, reason: `language "${l.id}" is listed twice` });
          seen.add(l.id);
        });
        if (typeof timeZone === 'string' && !validTimeZone(timeZone)) problems.push({ file, pointer: '/config/timeZone', reason: `"${timeZone}" is not an IANA time zone` });
        // "Rekord" of Dziennik zmian (issue 49): an audited resource, a table resource whose entity names its records, a route that opens one
        const auditedEnum = (schemas['audit-entry']?.properties?.resource as { enum?: string[] } | undefined)?.enum;
        const audited = new Set<string>(auditedEnum ?? []);
        const paths = routePaths();
        for (const [name, decl] of Object.entries((s.audit?.records ?? {}) as Record<string, { resource: string; open?: string }>)) {
          const pointer = `/audit/records/${name}`;
          if (!audited.has(name)) problems.push({ file, pointer, reason: `"${name}" is not an audited resource (the enum of audit-entry's resource)` });
          const resource = resources[decl.resource];
          if (!resource) problems.push({ file, pointer: `${pointer}/resource`, reason: `resource "${decl.resource}" does not exist in schemas/resources` });
          else if (!Array.isArray(schemas[resource.entity]?.['x-recordName'])) problems.push({ file, pointer: `${pointer}/resource`, reason: `entity "${resource.entity}" declares no x-recordName (how its records are named)` });
          if (decl.open !== undefined && !paths.has(decl.open)) problems.push({ file, pointer: `${pointer}/open`, reason: `"${decl.open}" is not the path of a route` });
        }
        // config.hiddenColumns names a table screen (or a details list's entity) and columns it has
        for (const [name, ids] of Object.entries((s.config?.hiddenColumns ?? {}) as Record<string, string[]>)) {
          const table = fileOfType(screens[name], 'table')?.columns ?? [];
          const lists = Object.values(screens).flatMap((x) => (fileOfType(x, 'details-dialog')?.tabs ?? []).flatMap((tab) => tab.lists ?? []))
            .filter((l) => l.entity === name).flatMap((l) => l.columns);
          const columns = new Set<string>([...table, ...lists].map((c) => c.id));
          if (!columns.size) problems.push({ file, pointer: `/config/hiddenColumns/${name}`, reason: `"${name}" is neither a table screen nor the entity of a details list` });
          else ids.forEach((id, i) => {
            if (!columns.has(id)) problems.push({ file, pointer: `/config/hiddenColumns/${name}/${i}`, reason: `"${name}" has no column "${id}"` });
          });
        }
        // the runtime reads the signed-in user's role and password expiry by the names sessionFields gives (issue 45)
        for (const [key, name] of Object.entries((s.sessionFields ?? {}) as Record<string, string>)) {
          if (!Object.hasOwn(schemas['user-details']?.properties ?? {}, name)) problems.push({ file, pointer: `/sessionFields/${key}`, reason: `"${name}" is not a field of the user's details (schemas/api/user-details)` });
        }
        // the session carries config flags by name; the reset mail opens a dialog of the login screen by its query
        (s.sessionConfig ?? []).forEach((name, i) => {
          if (!Object.hasOwn(s.config ?? {}, name)) problems.push({ file, pointer: `/sessionConfig/${i}`, reason: `"${name}" is not a flag of config` });
        });
        const reset = typeof s.security?.resetLink === 'string' ? /^([^?]*)\?(.+)$/.exec(s.security.resetLink) : null;
        if (reset) {
          const paths = routePaths();
          const queries = new Set(Object.values(screens).flatMap((x) => Object.keys(fileOfType(x, 'login')?.queryDialogs ?? {})));
          if (!paths.has(reset[1])) problems.push({ file, pointer: '/security/resetLink', reason: `"${reset[1]}" is not the path of a route` });
          if (!queries.has(reset[2])) problems.push({ file, pointer: '/security/resetLink', reason: `"?${reset[2]}" opens no dialog (not in the queryDialogs of a login screen)` });
        }
        break;
      }
      case 'reminders':
        checkReminders(fileOfType(screen, 'reminders')!, checkContext(id, file), routePaths());
        break;
      case 'notifications':
        checkNotifications(fileOfType(screen, 'notifications')!, checkContext(id, file), routePaths());
        break;
      case 'webhooks':
        checkWebhooks(fileOfType(screen, 'webhooks')!, checkContext(id, file));
        break;
      case 'fuel-anomalies':
        checkFuelAnomalies(fileOfType(screen, 'fuel-anomalies')!, checkContext(id, file));
        break;
      case 'inspections':
        checkInspections(fileOfType(screen, 'inspections')!, checkContext(id, file));
        break;
      default:
        screenTypeChecks.get(screen.type)?.(screen, checkContext(id, file));
    }
  }

  // "x-sortBy" names the property that orders another (a joined label by its code)
  for (const [id, schema] of Object.entries(schemas)) {
    const properties = schema.properties ?? {};
    for (const [name, property] of Object.entries(properties)) {
      // "x-valueLabels" names the texts of the property's values (the trail's dialogs show them)
      const labels = property?.['x-valueLabels'];
      if (labels !== undefined) needValueLabels(`schemas/entities/${id}.schema.json`, `/properties/${name}`, id, { id: name, valueLabels: labels as string });
      if (property?.['x-computed'] === true && property?.['x-filter'] !== false) {
        problems.push({ file: `schemas/entities/${id}.schema.json`, pointer: `/properties/${name}/x-computed`, reason: 'a computed field is in no view: it needs "x-filter": false (neither filtered nor sorted)' });
      }
      const target = property?.['x-sortBy'];
      if (target !== undefined && !(typeof target === 'string' && properties[target])) {
        problems.push({ file: `schemas/entities/${id}.schema.json`, pointer: `/properties/${name}/x-sortBy`, reason: `"${target}" is not a property of "${id}"` });
      }
    }
  }

  // "x-recordName": how a record is named (runtime/core/record-name.ts): fields of the entity, texts that exist
  for (const [id, schema] of Object.entries(schemas)) {
    const ways: unknown = schema?.['x-recordName'];
    if (ways === undefined) continue;
    const file = `schemas/entities/${id}.schema.json`;
    if (!Array.isArray(ways)) {
      problems.push({ file, pointer: '/x-recordName', reason: 'must be a list of ways to name a record: { "fields": [...], "text"?: "ns:key" }' });
      continue;
    }
    (ways as { fields?: unknown; text?: unknown }[]).forEach((way, i) => {
      if (!way || !Array.isArray(way.fields) || way.fields.length === 0) {
        problems.push({ file, pointer: `/x-recordName/${i}`, reason: 'a way names at least one field ("fields")' });
        return;
      }
      (way.fields as (string | { id?: unknown; format?: unknown } | null)[]).forEach((f, j) => {
        const field = typeof f === 'string' ? f : f?.id;
        if (typeof field !== 'string') problems.push({ file, pointer: `/x-recordName/${i}/fields/${j}`, reason: 'a field is its name or { "id", "format": "date" | "datetime" }' });
        else needField(file, `/x-recordName/${i}/fields/${j}`, id, field);
        if (typeof f === 'object' && f?.format !== undefined && f.format !== 'date' && f.format !== 'datetime') problems.push({ file, pointer: `/x-recordName/${i}/fields/${j}/format`, reason: 'format is "date" or "datetime"' });
      });
      if (way.text !== undefined) needKey(file, `/x-recordName/${i}/text`, String(way.text));
    });
  }

  for (const r of Object.values(resources)) {
    const file = `schemas/resources/${r.resource}.json`;
    needField(file, '/key', r.entity, r.key);
    if (r.srcColumn) needField(file, '/srcColumn', r.entity, r.srcColumn);
    if (r.groupColumn) needField(file, '/groupColumn', r.entity, r.groupColumn);
    if (r.parentScope) {
      needField(file, '/parentScope/typeColumn', r.entity, r.parentScope.typeColumn);
      needField(file, '/parentScope/idColumn', r.entity, r.parentScope.idColumn);
      for (const [type, name] of Object.entries(r.parentScope.parents)) {
        const parent = resources[name];
        const pointer = `/parentScope/parents/${type}`;
        if (!parent) problems.push({ file, pointer, reason: `resource "${name}" does not exist in schemas/resources` });
        else if (!parent.access) problems.push({ file, pointer, reason: `parent resource "${name}" must declare access itself (no parent of a parent)` });
      }
    }
    // the export names its file and sheet by the entity's title
    if (r.excelExport) needKey(file, '/excelExport', `${r.entity}:title`);
    (r.defaultSort ?? []).forEach((s, i) => needField(file, `/defaultSort/${i}/colId`, r.entity, s.colId));
    problems.push(...resourceRuleProblems(file, r, evaluator, needKey));
    (r.rules?.transitions ?? []).forEach((t, i) => t.recordDecider && needField(file, `/rules/transitions/${i}/recordDecider`, r.entity, t.recordDecider));
  }
  problems.push(...screenAccessProblems(parts, evaluator));
  problems.push(...unknownFlagProblems(parts));
  return problems;
}

/**
 * A condition that reads a configuration flag must name one the configuration has
 * (screens/app.json `config` with the variant's overlay): a misspelt flag would otherwise never
 * match, and a step or button would silently stay hidden (or shown) in every variant.
 */
function unknownFlagProblems(parts: Parts): ConfigProblem[] {
  const flags = new Set(Object.keys(parts.config ?? {}));
  const problems: ConfigProblem[] = [];
  const walk = (value: unknown, file: string, pointer: string) => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, file, `${pointer}/${i}`));
    if (!value || typeof value !== 'object') return;
    const node = value as Record<string, unknown> & { properties?: { config?: unknown } };
    const config = node.properties?.config as { properties?: object; required?: unknown } | undefined;
    if (config && typeof config === 'object') {
      const named: string[] = [...Object.keys(config.properties ?? {}), ...(Array.isArray(config.required) ? (config.required as string[]) : [])];
      for (const flag of new Set(named)) {
        if (!flags.has(flag)) problems.push({ file, pointer: `${pointer}/properties/config`, reason: `condition names the configuration flag "${flag}", which screens/app.json config does not have` });
      }
    }
    for (const [key, child] of Object.entries(node)) walk(child, file, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  };
  walk(parts.conditions, 'screens/conditions.json', '');
  for (const [id, screen] of Object.entries(parts.screens)) if (id !== 'conditions') walk(screen, `screens/${id}.json`, '');
  for (const [name, resource] of Object.entries(parts.resources)) walk(resource, `schemas/resources/${name}.json`, '');
  return problems;
}

/**
 * A role that can open a screen must be able to read the resource behind it (ACCESS.md: the menu,
 * the routes of screens/routes.json and the resources agree). For every route of routes.json, each
 * role its `allowedWhen` lets in (under this variant's settings) must be named by the access of
 * the resource of every table screen the route shows that role; every menu entry a role sees must
 * lead to a route that lets the role in. The server enforces the resources' roles; this check keeps
 * the screens from offering more than the server answers.
 */
function screenAccessProblems(parts: Parts, evaluator: ConditionEvaluator): ConfigProblem[] {
  const { screens, resources } = parts;
  const problems: ConfigProblem[] = [];
  const context = (role: Role) => ({ role, variant: parts.variant ?? 'default', config: parts.config ?? {} });
  const matches = (condition: unknown, role: Role) => {
    try {
      return condition === undefined || evaluator.matches(asCondition(condition), context(role));
    } catch {
      return false; // reported above as a condition that does not compile
    }
  };
  /** The roles that may read a resource: its own access, or its parents' (notes, attachments). */
  const readers = (name: string): Set<string> => {
    const r = resources[name];
    if (!r) return new Set();
    if (!r.parentScope) return new Set(Object.keys(r.access ?? {}));
    return new Set(Object.values(r.parentScope.parents).flatMap((p) => Object.keys(resources[p]?.access ?? {})));
  };
  const routes = fileOfType(screens.routes, 'routes')?.routes ?? [];
  routes.forEach((route, i) => {
    for (const role of ROLES) {
      if (route.public || !matches(route.allowedWhen, role)) continue;
      const shown: { screen: string; pointer: string }[] = [];
      if (route.screen) shown.push({ screen: route.screen, pointer: `/routes/${i}/screen` });
      (route.screens ?? []).forEach((c, j) => {
        if (matches(c.when, role)) shown.push({ screen: c.screen, pointer: `/routes/${i}/screens/${j}/screen` });
      });
      for (const { screen, pointer } of shown) {
        const resource = fileOfType(screens[screen], 'table')?.resource;
        if (resource && resources[resource] && !readers(resource).has(role)) {
          problems.push({
            file: 'screens/routes.json', pointer,
            reason: `route "${route.path}" lets ${role} open screen "${screen}", but resource "${resource}" does not let ${role} read it (schemas/resources/${resource}.json access): narrow allowedWhen or widen the resource`,
          });
        }
      }
    }
  });
  const menu = fileOfType(screens.menu, 'menu');
  (menu?.groups ?? []).forEach((group, i) => {
    group.items.forEach((item, j) => {
      const route = routes.find((r) => r.path === item.route);
      if (!route || route.public) return;
      for (const role of ROLES) {
        const visible = matches(group.visibleWhen, role) && !(group.hiddenWhen !== undefined && matches(group.hiddenWhen, role))
          && matches(item.visibleWhen, role) && !(item.hiddenWhen !== undefined && matches(item.hiddenWhen, role));
        if (visible && !matches(route.allowedWhen, role)) {
          problems.push({
            file: 'screens/menu.json', pointer: `/groups/${i}/items/${j}`,
            reason: `menu entry "${item.id}" is shown to ${role}, but route "${route.path}" does not let ${role} in (allowedWhen)`,
          });
        }
      }
    });
  });
  return problems;
}

function validTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Depth-first walk with JSON pointers; the visitor returns false to skip a subtree. */
function walk(value: unknown, pointer: string, visit: (v: unknown, pointer: string, key?: string) => boolean, key?: string) {
  if (key !== undefined && !visit(value, pointer, key)) return;
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${pointer}/${i}`, visit, String(i)));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) walk(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, visit, k);
}

/** Issue 12: the conditions of a resource's `rules` compile, the transitions' labels exist and their ids are unique. */
function resourceRuleProblems(file: string, r: ResourceDecl, evaluator: ConditionEvaluator, needKey: (file: string, pointer: string, key: string) => void): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const rules = r.rules;
  if (!rules) return problems;
  const compiles = (pointer: string, condition: unknown) => {
    try {
      evaluator.compile(asCondition(condition));
    } catch (e) {
      problems.push({ file, pointer, reason: `condition does not compile: ${(e as Error).message}` });
    }
  };
  for (const group of ['editableWhen', 'hiddenWhen'] as const) {
    for (const [field, condition] of Object.entries(rules[group] ?? {})) compiles(`/rules/${group}/${field}`, condition);
  }
  for (const key of ['ownVehicleWhen', 'ownStationWhen', 'confirmPricingWhen', 'authoriseOnCreateWhen', 'positionsLockedWhen'] as const) {
    if (rules[key] !== undefined) compiles(`/rules/${key}`, rules[key]);
  }
  const ids = new Set<string>();
  (rules.transitions ?? []).forEach((t, i) => {
    if (ids.has(t.id)) problems.push({ file, pointer: `/rules/transitions/${i}/id`, reason: `transition id "${t.id}" is used twice` });
    ids.add(t.id);
    if (t.when !== undefined) compiles(`/rules/transitions/${i}/when`, t.when);
    needKey(file, `/rules/transitions/${i}/label`, t.label);
  });
  return problems;
}
