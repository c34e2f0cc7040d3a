import { describe, expect, it } from 'vitest';
import { brandingStyle } from './branding';

describe('a variant’s colours as CSS custom properties', () => {
  it('maps each configured colour to its property and leaves the others unset', () => {
    expect(brandingStyle({ colors: { primary: '#1e6b3a', loginBackground: '#2f8f52' } })).toEqual({
      '--portal-primary': '#1e6b3a',
      '--portal-login-background': '#2f8f52',
      // Bootstrap's own primary and link colours follow, with their r, g, b triples
      '--bs-primary': '#1e6b3a',
      '--bs-primary-rgb': '30, 107, 58',
      '--bs-link-color': '#1e6b3a',
      '--bs-link-color-rgb': '30, 107, 58',
    });
    expect(brandingStyle({ colors: { primaryDark: '#124a27' } })).toEqual({
      '--portal-primary-dark': '#124a27', '--bs-link-hover-color': '#124a27', '--bs-link-hover-color-rgb': '18, 74, 39',
    });
  });
  it('sets nothing without colours, so the default look stays', () => {
    expect(brandingStyle({})).toEqual({});
    expect(brandingStyle({ logo: 'logo.svg' })).toEqual({});
  });
});
