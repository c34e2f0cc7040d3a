/** docs/benchmarks.md from the results of any set of measurements (nothing here knows a section). */
import { allMet, type Result } from './measure.ts';

export interface ReportInput {
  date: Date;
  facts: [string, string][];
  method: string;
  results: Result[];
  /** Markdown appended after the figures (how the figures are reached). */
  explanation: string;
  /** Why a fast call misses only the API/SQL ratio. */
  ratioNote: string;
  /** Markdown of the operator's figures (operations.ts), after the per-call sections. */
  operations?: string[];
}

const ms = (n: number) => n.toFixed(1);

function targetText(r: Result): string {
  return `p95 < ${r.target.p95Ms} ms${r.target.maxRatio !== undefined ? `, ≤ ${r.target.maxRatio}×` : ''}`;
}

const missedParts = (r: Result) => [...(r.met.p95 ? [] : ['p95']), ...(r.met.ratio === false ? ['ratio'] : []), ...r.extras.filter((e) => e.met === false).map((e) => e.label)];

function metText(r: Result): string {
  if (allMet(r)) return 'met';
  const missed = missedParts(r);
  return `**not met** (${missed.join(', ')})`;
}

export function renderReport(input: ReportInput): string {
  const lines: string[] = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` (tools/bench/) on ${input.date.toISOString().slice(0, 16).replace('T', ' ')} UTC. Generated: run the bench again rather than editing.`,
    '',
    '## Machine and data',
    '',
    ...input.facts.map(([k, v]) => `- **${k}:** ${v}`),
    '',
    input.method,
    '',
    '## Results',
  ];
  const sections = [...new Set(input.results.map((r) => r.section))];
  for (const section of sections) {
    const results = input.results.filter((x) => x.section === section);
    lines.push('', `### ${section}`, '', '| measurement | calls | API median | API p95 | SQL median | SQL p95 | API / SQL | API − SQL | target | |', '|---|---:|---:|---:|---:|---:|---:|---:|---|---|');
    for (const r of results) {
      lines.push(`| ${r.name} | ${r.api.n} | ${ms(r.api.median)} | ${ms(r.api.p95)} | ${ms(r.db.median)} | ${ms(r.db.p95)} | ${r.ratio.toFixed(2)}× | ${ms(r.api.median - r.db.median)} | ${targetText(r)} | ${metText(r)} |`);
    }
    const extras = results.flatMap((r) => r.extras);
    if (extras.length) {
      lines.push('');
      for (const e of extras) lines.push(`- ${e.label}: ${e.value}${e.target ? ` — target ${e.target}: ${e.met ? 'met' : '**not met**'}` : ''}`);
    }
  }
  const met = input.results.filter(allMet).length;
  lines.push('', `${met} of ${input.results.length} figures meet their targets.`);
  const missed = input.results.filter((r) => !allMet(r));
  if (missed.length) {
    lines.push('', '### Not met, and why');
    const reasons = new Map<string, string[]>();
    for (const r of missed) {
      const why = !r.met.p95 && r.whenMissed ? r.whenMissed : r.met.ratio === false ? input.ratioNote : (r.whenMissed ?? 'See "How" below.');
      const which = missedParts(r).join(', ');
      reasons.set(why, [...(reasons.get(why) ?? []), `${r.section} / ${r.name} (${which})`]);
    }
    for (const [why, names] of reasons) lines.push('', why, '', ...names.map((n) => `- ${n}`));
  }
  lines.push(...(input.operations ?? []));
  lines.push('', '### How the database reads them (EXPLAIN of the SQL above)', '');
  for (const r of input.results) lines.push(`- ${r.section} / ${r.name}: ${r.paths.join('; ') || '—'}`);
  lines.push('', input.explanation.trim(), '');
  return lines.join('\n');
}
