/**
 * The demo's vehicle inspections (issue 47): the driver of WZ12345 (kierowca) walked round his car
 * eight days ago from the weekly checklist, so the weekly inspection of screens/reminders.json
 * (inspectionWeekly: a passenger car or a van, seven days after its last inspection) is due on his
 * Do zrobienia and on the fleet manager's Pulpit; WZ67890 was inspected three days ago, at the
 * handover, so it is not due yet. Both show in Kartoteki → Kontrole pojazdów. The answers follow
 * the checklist of the configuration (screens/inspections.json of the checkout): every item passed,
 * the tyres with 7.5 mm of tread.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { addDays, at } from './sql-util.ts';

interface Declared { checklists: { id: string; groups: { id: string; items: { id: string; severity: string; measure?: unknown }[] }[] }[] }

export async function seedInspections(trx: Transaction<DB>, today: string, pojazdId: Record<'WZ12345' | 'WZ67890', number>, root: string): Promise<void> {
  let declared: Declared;
  try {
    declared = JSON.parse(readFileSync(join(root, 'screens/inspections.json'), 'utf8')) as Declared;
  } catch {
    return; // a configuration without inspections seeds none
  }
  const driver = await trx.selectFrom('app_user').select('id').where('login', '=', 'kierowca').executeTakeFirst();
  const manager = await trx.selectFrom('app_user').select('id').where('login', '=', 'manager').executeTakeFirst();
  const walks = [
    { rejestr: 'WZ12345' as const, checklist: 'walkaround', okazja: 'periodic', daysAgo: 8, userId: driver?.id ?? null },
    { rejestr: 'WZ67890' as const, checklist: 'handover', okazja: 'handover', daysAgo: 3, userId: manager?.id ?? null },
  ];
  for (const walk of walks) {
    const checklist = declared.checklists.find((c) => c.id === walk.checklist);
    if (!checklist) continue;
    const car = await trx.selectFrom('car').select(['pojazdId', 'klientSymbol', 'aktStanLicz']).where('pojazdId', '=', pojazdId[walk.rejestr]).executeTakeFirstOrThrow();
    const day = addDays(today, -walk.daysAgo);
    const { kontrolaId } = await trx.insertInto('inspection').values({
      pojazdId: car.pojazdId, klientSymbol: car.klientSymbol, szablon: checklist.id, okazja: walk.okazja, data: at(day, '07:40'),
      licznik: car.aktStanLicz === null ? null : Math.max(0, car.aktStanLicz - 150), wynik: 'ok', iloscUsterek: 0, userId: walk.userId,
    }).returning('kontrolaId').executeTakeFirstOrThrow();
    const items = checklist.groups.flatMap((g) => g.items.map((i) => ({ group: g.id, item: i })));
    await trx.insertInto('inspection_answer').values(items.map(({ group, item }, i) => ({
      kontrolaId, pozycja: item.id, grupa: group, wynik: 'pass', waga: item.severity, wartosc: item.measure ? 7.5 : null, kolejnosc: i,
    }))).execute();
    await trx.updateTable('car').set({ kontrolaData: day }).where('pojazdId', '=', car.pojazdId).execute();
  }
}
