import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import app from '../../../../locales/pl/app.json';
import dashboard from '../../../../locales/pl/dashboard.json';
import {
  dueText, itemsPath, leftText, pageInfo, shownTiles, stripText, tileTarget, totalsByUrgency, urgencyLabelKey, urgencyTone, vehicleText, type RuleSummary,
} from './reminders';

const i18n = i18next.createInstance();
await i18n.init({ lng: 'pl', resources: { pl: { app, dashboard } }, interpolation: { escapeValue: false } });
const t = (key: string, vars?: Record<string, unknown>) => i18n.t(key, vars ?? {}) as string;
// Intl separates groups and units with (narrow) no-break spaces; compare with plain ones
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

const rule = (id: string, counts: RuleSummary['counts'], extra: Partial<RuleSummary> = {}): RuleSummary => ({
  id, label: id, unit: 'days', counts, total: counts.pastDue + counts.urgent + counts.soon,
  worst: counts.pastDue ? 'pastDue' : counts.urgent ? 'urgent' : counts.soon ? 'soon' : null, ...extra,
});

describe('tiles', () => {
  it('colour a tile by its worst urgency: past due and urgent red, soon amber, nothing due neutral', () => {
    expect(urgencyTone('pastDue')).toBe('danger');
    expect(urgencyTone('urgent')).toBe('danger');
    expect(urgencyTone('soon')).toBe('warning');
    expect(urgencyTone(null)).toBe('neutral');
    expect(urgencyTone(undefined)).toBe('neutral');
  });

  it('say the urgency in words beside the colour', () => {
    expect(t(urgencyLabelKey('pastDue'))).toBe('Po terminie');
    expect(t(urgencyLabelKey('urgent'))).toBe('Pilne');
    expect(t(urgencyLabelKey('soon'))).toBe('Wkrótce');
    expect(t(urgencyLabelKey(null))).toBe('Nic nie czeka');
  });

  it('open the rule\'s table with its filter, or the rule\'s items in the list', () => {
    const filter = { status: { filterType: 'set', values: [1] } };
    expect(tileTarget({ id: 'ordersAwaitingAcceptance', table: { route: '/app/order', filter } })).toEqual({
      kind: 'table', href: `/app/order?filter=${encodeURIComponent(JSON.stringify(filter))}`,
    });
    expect(tileTarget({ id: 'insuranceOc' })).toEqual({ kind: 'list', rule: 'insuranceOc' });
  });

  it('leave out rules with nothing due only when asked to', () => {
    const rules = [rule('a', { pastDue: 0, urgent: 0, soon: 0 }), rule('b', { pastDue: 0, urgent: 0, soon: 2 })];
    expect(shownTiles(rules).map((r) => r.id)).toEqual(['a', 'b']);
    expect(shownTiles(rules, true).map((r) => r.id)).toEqual(['b']);
  });
});

describe('strip', () => {
  it('adds the counts of every rule by urgency, most urgent first', () => {
    const totals = totalsByUrgency([rule('a', { pastDue: 2, urgent: 10, soon: 0 }), rule('b', { pastDue: 3, urgent: 2, soon: 10300 })]);
    expect(totals).toEqual({ pastDue: 5, urgent: 12, soon: 10300 });
    // Polish groups digits from five up (10 300, but 1500)
    expect(plain(stripText(totals, t))).toBe('Przypomnienia: po terminie 5 · pilne 12 · wkrótce 10 300');
  });

  it('says so when nothing is due', () => {
    expect(stripText(totalsByUrgency([]), t)).toBe('Brak przypomnień');
  });
});

describe('items', () => {
  it('asks for a page of items with only the parts chosen', () => {
    expect(itemsPath('/reminders/items', {})).toBe('/reminders/items');
    expect(itemsPath('/reminders/items', { rule: 'insuranceOc', urgency: 'urgent', offset: 10, limit: 10 })).toBe(
      '/reminders/items?rule=insuranceOc&urgency=urgent&offset=10&limit=10',
    );
    expect(itemsPath('/reminders/items', { rule: null, urgency: null, offset: 0, limit: 20 })).toBe('/reminders/items?limit=20');
  });

  it('shows when an item is due as DD.MM.YYYY, or the reading it is due at', () => {
    expect(dueText({ dueDate: '2026-03-07', limitKm: 90000 }, t)).toBe('07.03.2026');
    expect(plain(dueText({ dueDate: null, limitKm: 90000 }, t))).toBe('90 000 km');
    expect(dueText({ dueDate: null, limitKm: null }, t)).toBe(app.empty);
  });

  it('says how long is left in the server\'s sentence (the one that names which limit comes first), or the empty mark', () => {
    expect(leftText({ left: 'wg prognozy 94 dni po terminie (przy ostatnim odczycie brakowało 300 km)' }, t)).toBe('wg prognozy 94 dni po terminie (przy ostatnim odczycie brakowało 300 km)');
    expect(leftText({ left: '' }, t)).toBe(app.empty);
  });

  it('names the vehicle by registration and make with model', () => {
    const fields = { id: 'pojazdId', plate: 'rejestr', model: 'markaModel' };
    const item = (values: Record<string, unknown>) => values as unknown as Parameters<typeof vehicleText>[0];
    expect(vehicleText(item({ rejestr: 'WX 12345', markaModel: 'Skoda Octavia' }), fields)).toBe('WX 12345 Skoda Octavia');
    expect(vehicleText(item({ rejestr: null, markaModel: null }), fields)).toBe('');
    // the fields are the configuration's (screens/dashboard.json reminders.vehicle), whatever they are called
    expect(vehicleText(item({ plate: 'GD 3310K', model: 'Kia Ceed', rejestr: 'X' }), { id: 'vehicleId', plate: 'plate', model: 'model' })).toBe('GD 3310K Kia Ceed');
  });

  it('pages: the rows shown and the offsets beside them', () => {
    expect(pageInfo(0, 10, 10, 57)).toEqual({ from: 1, to: 10, total: 57, previous: null, next: 10 });
    expect(pageInfo(50, 10, 7, 57)).toEqual({ from: 51, to: 57, total: 57, previous: 40, next: null });
    expect(pageInfo(5, 10, 10, 57)).toMatchObject({ previous: 0 });
    expect(pageInfo(0, 10, 0, 0)).toEqual({ from: 0, to: 0, total: 0, previous: null, next: null });
  });
});
