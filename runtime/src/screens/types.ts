import type { RenderableScreen } from '../config/types';

/**
 * How a screen is placed: a page of the shell; the body of a modal route (the route draws the
 * modal); a dialog opened by an action (the screen draws its own modal); inside another screen.
 */
export type Presentation = 'page' | 'modal' | 'dialog' | 'embedded';

export interface ScreenProps<S extends RenderableScreen = RenderableScreen> {
  screen: S;
  screenId: string;
  presentation: Presentation;
  /** Values for `{name}` placeholders of the screen's endpoints, e.g. { id } of a details dialog. */
  params?: Record<string, unknown>;
  /** Parent record id of an embedded table (sent as rowParams.srcId). */
  srcId?: unknown;
  /** Closes a dialog screen or a modal route. */
  onClose?: () => void;
}
