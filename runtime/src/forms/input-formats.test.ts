import { describe, expect, it } from 'vitest';
import { configureFormats } from '../format-settings';
import { date, dateTime, inputFormatOf, mileage, money, percent, phone, postcode, quantity, time, tread } from './input-formats';

describe('the typed inputs of the forms', () => {
  it('shows money with a decimal comma and grouped thousands, and reads it back in either notation', () => {
    expect(money.display(1234.5)).toBe('1 234,50');
    expect(money.display(0)).toBe('0,00');
    expect(money.display(1000000)).toBe('1 000 000,00');
    expect(money.parse('1 234,5')).toBe(1234.5);
    expect(money.parse('1234.56')).toBe(1234.56);
    expect(money.parse('  ')).toBeUndefined();
  });

  it('keeps money it cannot read as typed, so the schema reports it', () => {
    expect(money.parse('12,345')).toBe('12,345');
    expect(money.parse('abc')).toBe('abc');
  });

  it('shows mileage in whole kilometres, grouped, and reads only digits', () => {
    expect(mileage.display(123456)).toBe('123 456');
    expect(mileage.parse('123 456')).toBe(123456);
    expect(mileage.parse('12,5')).toBe('12,5');
    expect(mileage.parse('')).toBeUndefined();
  });

  it('masks a nine-digit phone number in threes and sends the digits', () => {
    expect(phone.parse('600 123 456')).toBe('600123456');
    expect(phone.display('600123456')).toBe('600 123 456');
    expect(phone.display('6001')).toBe('600 1');
    expect(phone.parse('6001234567')).toBe('600123456');
    expect(phone.parse('+48 600')).toBe('+48 600');
    // a landline as Poles write it, by its area code, also while it is typed
    expect(phone.display('225001000')).toBe('22 500 10 00');
    expect(phone.display('22500')).toBe('22 500');
    expect(phone.display('225001')).toBe('22 500 1');
    expect(phone.display('22')).toBe('22');
    expect(phone.parse('22 500 10 00')).toBe('225001000');
    expect(phone.display('800100100')).toBe('800 100 100');
  });

  it('puts the hyphen of a postcode NN-NNN in as the digits come', () => {
    expect(postcode.parse('00')).toBe('00');
    expect(postcode.parse('001')).toBe('00-1');
    expect(postcode.parse('00950')).toBe('00-950');
    expect(postcode.parse('00-950')).toBe('00-950');
    expect(postcode.parse('009501')).toBe('00-950');
    expect(postcode.parse('0a-950')).toBe('0a-950');
  });

  it('reads a date DD.MM.YYYY into YYYY-MM-DD and shows it back, refusing days that do not exist', () => {
    expect(date.parse('5.3.2024')).toBe('2024-03-05');
    expect(date.display('2024-03-05')).toBe('05.03.2024');
    expect(date.parse('29.02.2023')).toBe('29.02.2023');
    expect(date.parse('29.02.2024')).toBe('2024-02-29');
  });

  it('reads a date-time DD.MM.YYYY HH:mm and shows it back', () => {
    expect(dateTime.parse('05.03.2024 23:59')).toBe('2024-03-05T23:59');
    expect(dateTime.display('2024-03-05T07:30:00')).toBe('05.03.2024 07:30');
    // an instant is shown in the portal's time zone (Europe/Warsaw: UTC+1 in March)
    expect(dateTime.display('2024-03-05T07:30:00.000Z')).toBe('05.03.2024 08:30');
    expect(dateTime.parse('05.03.2024 24:00')).toBe('05.03.2024 24:00');
  });

  it("reads and shows dates by the reader's language (config.datePattern): DD/MM/YYYY in English, its letters as the placeholder", () => {
    const letters: Record<string, string> = { 'app:datePattern.day': 'DD', 'app:datePattern.month': 'MM', 'app:datePattern.year': 'YYYY', 'app:datePattern.hour': 'HH', 'app:datePattern.minute': 'MM' };
    try {
      configureFormats({ locale: 'en-GB', datePattern: 'DD/MM/YYYY' });
      expect(date.parse('31/12/2026')).toBe('2026-12-31');
      expect(date.display('2026-12-31')).toBe('31/12/2026');
      // the Polish notation is not this reader's: kept as typed, for the form to say the pattern
      expect(date.parse('31.12.2026')).toBe('31.12.2026');
      expect(dateTime.parse('31/12/2026 7:05')).toBe('2026-12-31T07:05');
      expect(dateTime.display('2026-12-31T07:05')).toBe('31/12/2026 07:05');
      expect(typeof date.placeholder === 'function' && date.placeholder((key) => letters[key])).toBe('DD/MM/YYYY');
      expect(typeof dateTime.placeholder === 'function' && dateTime.placeholder((key) => letters[key])).toBe('DD/MM/YYYY HH:MM');
    } finally {
      configureFormats({});
    }
    expect(date.display('2026-12-31')).toBe('31.12.2026');
  });

  it('finds the format of a field by its widget name, and none for plain inputs', () => {
    expect(inputFormatOf('money')).toBe(money);
    expect(inputFormatOf('text')).toBeUndefined();
    expect(inputFormatOf('toString')).toBeUndefined();
  });

  it('reads a time of day as HH:mm and leaves an impossible one for the schema to refuse', () => {
    expect(time.parse('9:05')).toBe('09:05');
    expect(time.parse('14.30')).toBe('14:30');
    expect(time.parse('24:00')).toBe('24:00');
    expect(time.parse(' ')).toBeUndefined();
  });

  it('shows a tread with one decimal, a quantity and a whole percentage, and keeps what they cannot read', () => {
    expect(tread.display(7)).toBe('7,0');
    expect(tread.parse('6,5')).toBe(6.5);
    expect(tread.parse('6,55')).toBe('6,55');
    expect(quantity.display(2.5)).toBe('2,5');
    expect(quantity.parse('1,25')).toBe(1.25);
    expect(percent.display(10)).toBe('10');
    expect(percent.parse('10')).toBe(10);
    expect(percent.parse('10,5')).toBe('10,5');
    expect(percent.parse('')).toBeUndefined();
    expect(inputFormatOf('tread')).toBe(tread);
  });
});
