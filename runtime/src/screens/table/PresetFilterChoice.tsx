/**
 * The fixed filters a table declares (`presetFilter`), e.g. Aktualne / Archiwalne / Wszystkie on
 * contracts: one radio button each; the chosen option's filter model is sent with every request.
 */
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';
import { useId } from 'react';
import { useTranslation } from '../../config/texts';
import type { PresetFilterDecl } from '../../config/bundle';

export function PresetFilterChoice({ preset, value, onChange }: { preset: PresetFilterDecl; value: string; onChange: (id: string) => void }) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <ToggleButtonGroup type="radio" name={name} value={value} onChange={onChange} size="sm" aria-label={preset.label ? t(preset.label) : undefined} className="preset-filter">
      {preset.options.map((option) => (
        <ToggleButton key={option.id} id={`${name}-${option.id}`} value={option.id} variant="outline-primary">
          {t(option.label)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
