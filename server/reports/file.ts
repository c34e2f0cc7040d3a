/**
 * A report's run and its file for one reader (issue 46), shared by the routes (a request's caller)
 * and the subscriptions' e-mails (the owner, judged when the mail is sent): the rows are the
 * vehicles of the car resource's row scope of `session` (ACCESS.md), the texts those of `t` (the
 * reader's language), the configuration that of his variant.
 */
import type { Kysely } from 'kysely';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { Session } from '../auth/session.ts';
import type { Bundle } from '../config/bundle.ts';
import { currencyOf, localeOf, timeZoneOf } from '../config/locale.ts';
import type { DB } from '../db/types.generated.ts';
import { scopeExpression } from '../access/row-scope.ts';
import { configuredBuilder } from '../db/configured-tables.ts';
import type { ReportDecl } from '../config/report-declaration.ts';
import { runReport, type ReportResult, type RunParams } from './engine.ts';
import { runAnomalyReport } from './anomalies.ts';
import { anomaliesFile } from '../anomalies/find.ts';
import { monthStart, reportPdf, reportXlsx, XLSX_MIME, type ExportHead } from './export.ts';
import { brandingOf, brandLogo, hexColour } from '../config/branding.ts';
import { appNameOf } from '../notifications/render.ts';
import { datePatternFor } from '../config/languages.ts';
import { dateTimeText, isoDayText } from '../../runtime/core/date-text.ts';

export interface Reader {
  db: Kysely<DB>;
  bundle: Bundle;
  t: Translate;
  session: Session;
  /** The reader's locale (his language's), for dates and numbers in the file. */
  locale?: string;
  /** How the reader's language writes a day (DD.MM.YYYY, DD/MM/YYYY); the default language's without it. */
  datePattern?: string;
  /** The configuration's folder, where the variant's logo is (a file without it has no logo). */
  root?: string;
}

export interface ExportedFile { filename: string; mime: string; content: Buffer }

/** The report's rows within the reader's vehicles. */
export async function runFor(reader: Reader, report: ReportDecl, params: RunParams): Promise<ReportResult> {
  const { bundle, t, session } = reader;
  const reporting = bundle.reporting;
  if (!reporting) throw new Error('schemas/reporting/reporting.json is missing');
  const car = bundle.resources.car;
  if (!car) throw new Error('resource car is not in the bundle');
  const forbidden = t('errors:forbidden');
  const vehicles = reader.db.selectFrom('car').select('car.pojazdId').where((eb) => scopeExpression(configuredBuilder(eb), bundle.resources, car, session, forbidden));
  if (report.source === 'anomalies') {
    // the fuel anomalies (issue 46): counted per rule, explained or not (reports/anomalies.ts)
    const rules = anomaliesFile(bundle.screens)?.rules ?? [];
    return runAnomalyReport(reader.db, report, params, vehicles, (key) => t(key), Object.fromEntries(rules.map((r) => [r.id, r.label])));
  }
  return runReport(reader.db, report, reporting, params, vehicles, (key) => t(key));
}

/** A YYYY-MM value as the month's short name and year (lis 2026, Nov 2026), as the Raporty screen writes it; any other value as it is. */
export function monthText(value: unknown, month: Intl.DateTimeFormat): string {
  const start = monthStart(value);
  return start ? month.format(start) : String(value);
}

/**
 * The numbers of a report's files as the Raporty screen writes them (runtime/src/format.ts): the
 * reader's language, the configured currency, units by the language's own words (zł, км, л), never
 * a unit written here; the Excel file takes its units from the same (issue 48). Litres and
 * kilograms have two decimals on every row, as the screen and the Excel file's digits.
 */
export function reportNumberFormats(locale: string, currency: string): Record<string, Intl.NumberFormat> {
  return {
    money: new Intl.NumberFormat(locale, { style: 'currency', currency }),
    km: new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 0 }),
    litres: new Intl.NumberFormat(locale, { style: 'unit', unit: 'liter', minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    kg: new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilogram', minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  };
}

/** The file of a run: its header names the report, the period and the filters (with the values' labels as the rows show them). */
export async function reportFile(reader: Reader, report: ReportDecl, params: RunParams, result: ReportResult, format: 'xlsx' | 'pdf', now: Date): Promise<ExportedFile> {
  const { t, bundle } = reader;
  const locale = reader.locale ?? localeOf(bundle.config);
  const pattern = reader.datePattern ?? datePatternFor(bundle);
  const filters = Object.entries(params.filters).filter(([, v]) => v?.length)
    .map(([d, v]) => `${t(`reports:dimensions.${d}`)}: ${v!.join(', ')}`).join('; ');
  // the portal's name as its users know it (the login screen's), never the variant's code name
  const brand = appNameOf(bundle);
  const head: ExportHead = {
    title: t(report.label),
    period: t('reports:export.period', { from: isoDayText(params.from, pattern), to: isoDayText(params.to, pattern) }),
    filters: filters ? t('reports:export.filters', { filters }) : '',
    brand, total: t('reports:screen.total'),
    generatedAt: dateTimeText(now, timeZoneOf(bundle.config), pattern),
  };
  const name = `${t(report.label)} ${params.from} ${params.to}`;
  const formats = reportNumberFormats(locale, currencyOf(bundle.config));
  head.numbers = formats;
  if (format === 'xlsx') return { filename: `${name}.xlsx`, mime: XLSX_MIME, content: await reportXlsx(result, head) };
  head.logo = reader.root === undefined ? undefined : await brandLogo(bundle, reader.root);
  const primary = brandingOf(bundle).colors?.primary;
  head.accent = primary ? hexColour(primary, '') || undefined : undefined;
  const plain = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const month = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const shown = (v: unknown, f?: string) => {
    if (v === null || v === undefined) return '–';
    if (f === 'month') return monthText(v, month);
    if (typeof v !== 'number') return String(v);
    return (f ? formats[f] : undefined)?.format(v) ?? plain.format(v);
  };
  return { filename: `${name}.pdf`, mime: 'application/pdf', content: await reportPdf(result, head, shown) };
}
