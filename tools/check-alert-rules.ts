/**
 * Part of `npm run check` (issue 33): the operators' files under docs/ stay true to the server.
 * - Every `portal_*` metric that docs/prometheus-alerts.yml and docs/grafana-dashboard.json name is
 *   one the server declares (server/metrics/registry.ts), so a renamed metric cannot leave an alert
 *   that never fires or an empty panel; the dashboard is JSON Grafana can import.
 * - `promtool check rules` and `promtool test rules` (Debian's prometheus package) on the alerts and
 *   their unit tests, when promtool is installed. CI installs it and sets REQUIRE_PROMTOOL=1, so there
 *   a missing promtool fails instead of being skipped.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClusterMetrics, createMetrics } from '../server/metrics/registry.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ALERTS = 'docs/prometheus-alerts.yml';
const ALERT_TESTS = 'docs/prometheus-alerts.test.yml';
const DASHBOARD = 'docs/grafana-dashboard.json';

const problems: string[] = [];

// the metrics the server declares, with the series a histogram adds
const declared = new Set<string>();
for (const registry of [createMetrics().registry, createClusterMetrics().registry]) {
  for (const metric of registry.getMetricsAsArray()) {
    declared.add(metric.name);
    for (const suffix of ['_bucket', '_sum', '_count']) declared.add(metric.name + suffix);
  }
}

const dashboardText = readFileSync(join(root, DASHBOARD), 'utf8');
try {
  const dashboard = JSON.parse(dashboardText) as { panels?: unknown[]; title?: string };
  if (!dashboard.title || !Array.isArray(dashboard.panels) || dashboard.panels.length === 0) problems.push(`${DASHBOARD}: no title or no panels`);
} catch (error) {
  problems.push(`${DASHBOARD}: not JSON (${(error as Error).message})`);
}
for (const [file, text] of [[ALERTS, readFileSync(join(root, ALERTS), 'utf8')], [DASHBOARD, dashboardText]] as const) {
  for (const name of new Set(text.match(/\bportal_[a-z0-9_]+/g) ?? [])) {
    if (!declared.has(name)) problems.push(`${file}: ${name} is not a metric of server/metrics/registry.ts`);
  }
}

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
if (promtool.error) {
  if (process.env.REQUIRE_PROMTOOL) problems.push('promtool is not installed (apt-get install prometheus), and REQUIRE_PROMTOOL is set');
  else console.log(`promtool not installed: ${ALERTS} not checked by it (CI checks it)`);
} else {
  // the dashboard's queries, with Grafana's variables filled in, are parsed as recording rules
  const queries = dashboardQueries(dashboardText).map((expr, i) => ({
    record: `dashboard:query_${i}`,
    expr: expr.replaceAll('$__rate_interval', '5m').replaceAll('$instance', '.*'),
  }));
  const dashboardRules = join(mkdtempSync(join(tmpdir(), 'dashboard-rules-')), 'dashboard.rules.json');
  // JSON is YAML: promtool reads it as a rules file
  writeFileSync(dashboardRules, JSON.stringify({ groups: [{ name: 'dashboard', rules: queries }] }));
  for (const args of [['check', 'rules', ALERTS], ['test', 'rules', ALERT_TESTS], ['check', 'rules', dashboardRules]]) {
    const run = spawnSync('promtool', args, { cwd: root, encoding: 'utf8' });
    if (run.status !== 0) problems.push(`promtool ${args.join(' ')}${args[2] === dashboardRules ? ` (the queries of ${DASHBOARD})` : ''}:\n${run.stdout}${run.stderr}`);
  }
}

/** Every query (`expr`) of the dashboard's panels. */
function dashboardQueries(text: string): string[] {
  try {
    const panels = (JSON.parse(text) as { panels?: { targets?: { expr?: string }[] }[] }).panels ?? [];
    return panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr).filter((e): e is string => Boolean(e)));
  } catch {
    return [];
  }
}

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`Alert rules and dashboard name only declared metrics${promtool.error ? '' : '; promtool checks and tests pass'}.`);
