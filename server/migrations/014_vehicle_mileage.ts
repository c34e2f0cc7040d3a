/**
 * 014 — each vehicle's readings summed up, for the reminders' projections (issue 24).
 *
 * A distance reminder projects the day it comes due, and the contract's km-limit reminder the
 * mileage at the contract's end, from the vehicle's daily average over its readings. Reading the
 * first and last reading of every vehicle at each cockpit would mean two index probes per vehicle
 * (200 000 for an administrator of the bench's 100 000 vehicles); `vehicle_mileage` keeps them
 * per vehicle instead: how many readings, the first and the last (date and counter).
 *
 * It stays fresh by statement-level triggers on mileage_reading (insert, update, delete): each
 * statement recomputes the rows of the vehicles it touched, in the same transaction as the write,
 * so a reading and its summary commit together and no reader ever sees one without the other.
 * A bulk insert of a million readings recomputes each vehicle once, not once per reading.
 */
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

const REFRESH = (vehicles: string) => `
    delete from vehicle_mileage where "pojazdId" in (select "pojazdId" from ${vehicles});
    insert into vehicle_mileage ("pojazdId", "readings", "firstData", "firstLicznik", "lastData", "lastLicznik")
      select r."pojazdId", count(*), min(r."data"), min(r."licznik"), max(r."data"), max(r."licznik")
      from mileage_reading r
      where r."pojazdId" in (select distinct "pojazdId" from ${vehicles})
      group by r."pojazdId";`;

export const migration014: Migration = {
  async up(db) {
    await runStatements(db, [
      `create table vehicle_mileage (
        "pojazdId" integer primary key references car on delete cascade,
        "readings" integer not null,
        "firstData" timestamptz not null,
        "firstLicznik" integer not null,
        "lastData" timestamptz not null,
        "lastLicznik" integer not null
      )`,
      `insert into vehicle_mileage ("pojazdId", "readings", "firstData", "firstLicznik", "lastData", "lastLicznik")
        select "pojazdId", count(*), min("data"), min("licznik"), max("data"), max("licznik") from mileage_reading group by "pojazdId"`,
      `create function vehicle_mileage_after_insert() returns trigger language plpgsql as $$
        begin ${REFRESH('new_rows')} return null; end $$`,
      `create function vehicle_mileage_after_delete() returns trigger language plpgsql as $$
        begin ${REFRESH('old_rows')} return null; end $$`,
      `create function vehicle_mileage_after_update() returns trigger language plpgsql as $$
        begin ${REFRESH('(select "pojazdId" from old_rows union select "pojazdId" from new_rows) as touched')} return null; end $$`,
      `create trigger vehicle_mileage_insert after insert on mileage_reading
        referencing new table as new_rows for each statement execute function vehicle_mileage_after_insert()`,
      `create trigger vehicle_mileage_delete after delete on mileage_reading
        referencing old table as old_rows for each statement execute function vehicle_mileage_after_delete()`,
      `create trigger vehicle_mileage_update after update on mileage_reading
        referencing old table as old_rows new table as new_rows for each statement execute function vehicle_mileage_after_update()`,
    ]);
  },
  async down(db) {
    await runStatements(db, [
      'drop trigger vehicle_mileage_update on mileage_reading',
      'drop trigger vehicle_mileage_delete on mileage_reading',
      'drop trigger vehicle_mileage_insert on mileage_reading',
      'drop function vehicle_mileage_after_update()',
      'drop function vehicle_mileage_after_delete()',
      'drop function vehicle_mileage_after_insert()',
      'drop table vehicle_mileage',
    ]);
  },
};
