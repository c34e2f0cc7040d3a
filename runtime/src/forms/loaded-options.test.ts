import { describe, expect, it } from 'vitest';
import { formSchema, withLoadedOptions } from './form-data';

describe('options a form’s loaded record holds (optionsFrom, issue 48)', () => {
  const fields: { id: string; optionsFrom?: { path: string; valueField: string; labelField: string }; options?: { value: unknown; label: string }[] }[] = [{ id: 'language', optionsFrom: { path: 'languages', valueField: 'id', labelField: 'name' } }];

  it('offers the loaded list, each item’s value and its name as written', () => {
    const record = { language: 'en', languages: [{ id: 'pl', name: 'Polski' }, { id: 'en', name: 'English' }] };
    const [field] = withLoadedOptions(fields, record);
    expect(field.options).toEqual([{ value: 'pl', label: 'Polski' }, { value: 'en', label: 'English' }]);
    const schema = formSchema({ type: 'object', properties: { language: { type: 'string' } } }, { fields: [field] as any, values: undefined });
    expect((schema.properties!.language as { enum: string[] }).enum).toEqual(['pl', 'en']);
  });

  it('keeps the field as declared until the list is loaded', () => {
    expect(withLoadedOptions(fields, {})[0]).toBe(fields[0]);
  });
});
