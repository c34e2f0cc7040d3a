/** Prometheus's text format as the metrics tests read it (tests/api/metrics.test.ts, tests/cluster/metrics-processes.test.ts). */

/** One sample of the text format: its name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Prometheus's text format (version 0.0.4), strictly: every line is a comment (# HELP / # TYPE of a
 * name declared once) or a sample `name{label="value",…} number`; anything else fails the parse.
 */
export function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const sampleLine = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (-?[0-9.eE+-]+|[+-]Inf|NaN|Nan)$`);
  const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') {
        if (types.has(comment[2])) throw new Error(`TYPE twice for ${comment[2]}`);
        types.set(comment[2], comment[3]);
      }
      continue;
    }
    const m = sampleLine.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    if (m[2]) {
      label.lastIndex = 0;
      let consumed = 0;
      for (let l = label.exec(m[2]); l; l = label.exec(m[2])) {
        labels[l[1]] = l[2];
        consumed = label.lastIndex;
      }
      if (consumed !== m[2].length) throw new Error(`bad labels: ${line}`);
    }
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { samples, types };
}

/** The value of the one sample with this name and (at least) these labels; undefined when absent. */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}
