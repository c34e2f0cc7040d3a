/** A path inside the portal, never another site or a script: only such a value becomes a link (cells and fields of `link` kind). */
export const portalPath = (value: unknown): string | null => (typeof value === 'string' && /^\/(?![/\\])/.test(value) ? value : null);
