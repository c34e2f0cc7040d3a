/**
 * Values a form shows computed from what is typed (read-only, never sent), registered by name and
 * named by a screen's `computed[].compute` (schemas/meta/form-dialog.schema.json). The figures come
 * from runtime/core, the same functions the server stores its figures with.
 */
import { positionNet } from '../../core/order-values';

type Data = Record<string, unknown>;
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export const COMPUTED: Record<string, (data: Data) => unknown> = {
  /** Net of an order position: (price − price × discount %) × quantity, 2 decimals. */
  positionNet: (data) => positionNet({ cena: num(data.cena), ilosc: num(data.ilosc), rabatProc: num(data.rabatProc) }),
};

/** The value of a named computation for the form's data (undefined for a name not registered). */
export function computedValue(name: string, data: Data): unknown {
  return Object.hasOwn(COMPUTED, name) ? COMPUTED[name](data) : undefined;
}
