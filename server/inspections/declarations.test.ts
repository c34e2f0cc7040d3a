import { describe, expect, it } from 'vitest';
import { loadBundle } from '../config/load-bundle.ts';
import { ROOT } from '../../tests/support/test-app.ts';
import { checklistById, inspectionsFile, itemsOf, opensFor } from './declarations.ts';

describe('the inspections of the configuration', () => {
  const byDefault = inspectionsFile(loadBundle({ root: ROOT }))!;
  const ofT = inspectionsFile(loadBundle({ root: ROOT, variant: 't' }))!;

  it('opens a damage for a failed tyre, a service order for a failed fluid, nothing for a missing first-aid kit', () => {
    const walk = checklistById(byDefault, 'walkaround')!;
    const item = (id: string) => itemsOf(walk).find((d) => d.item.id === id)!;
    expect(opensFor(byDefault, item('tyreFrontLeft').group, item('tyreFrontLeft').item)).toBe('damage');
    expect(opensFor(byDefault, item('engineOil').group, item('engineOil').item)).toBe('serviceOrder');
    expect(opensFor(byDefault, item('firstAidKit').group, item('firstAidKit').item)).toBe('nothing');
  });

  it('lets variant T add the tachograph card after the insurance policy and ask 3 mm of tread, leaving the rest as declared', () => {
    const walk = checklistById(ofT, 'walkaround')!;
    expect(walk.groups.find((g) => g.id === 'documents')!.items.map((i) => i.id)).toEqual(['registrationCertificate', 'insurancePolicy', 'tachographCard']);
    const tyres = walk.groups.find((g) => g.id === 'tyres')!.items;
    expect(tyres.map((i) => i.measure?.failBelow)).toEqual([3, 3, 3, 3]);
    expect(tyres[0]).toMatchObject({ severity: 'critical', measure: { min: 0, max: 12, step: 0.5 } });
    expect(checklistById(byDefault, 'walkaround')!.groups.find((g) => g.id === 'tyres')!.items[0].measure?.failBelow).toBe(1.6);
  });
});
