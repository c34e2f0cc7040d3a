import type { ComponentType, LazyExoticComponent } from 'react';
import type { RenderableScreen } from '../config/bundle';
import type { DialogOpening } from '../actions/run-action';
import type { ConditionContext, ConditionEvaluator } from '../../core/conditions';

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
  /** A form-dialog's opening: the row it is about, its mode, a button to press at once (actions/run-action.ts). */
  opening?: DialogOpening;
  /** Parent record id of an embedded table (sent as rowParams.srcId). */
  srcId?: unknown;
  /** Closes a dialog screen or a modal route. */
  onClose?: () => void;
  /** A dialog changed data its opener shows (a table reloads its rows). */
  onChanged?: () => void;
}

/**
 * A screen type as the runtime registry holds it (`<type>/index.ts` exports one as `screenType`):
 * its name and its component loaded lazily (so a page downloads only its own screen types' code).
 * Its cross-check (runtime/core/screen-checks/<type>.ts) is the server's (screen-types.ts there
 * lists them): the browser never runs it, so it stays out of the browser's entry (issue 33).
 */
export interface ScreenTypeModule {
  type: string;
  component: LazyExoticComponent<ComponentType<ScreenProps<any>>>;
  /** Starts loading the component's module ahead of its first render. */
  load?: () => Promise<unknown>;
  /** What a visitor who is not signed in sees first (the sign-in form): `load`ed at start-up. */
  guestFirst?: boolean;
}

/**
 * What a screen of a type reads when it is first drawn, as the addresses its component asks for
 * (`<type>/reads.ts` exports it as `reads`): routing/first-reads.ts asks them at start-up, beside
 * the screen's code rather than after it (issue 47). A type without one is read when drawn.
 */
export type ScreenReads<S = any> = (screen: S, env: { conditions: ConditionEvaluator; ctx: ConditionContext }) => string[];

/**
 * A session gate's screen that may have nothing to show (`<type>/gate.ts` exports it as
 * `passedAtOnce`): shell/SessionGates.tsx asks it before loading the screen's code, and a gate it
 * finds passed is passed without its dialog (issue 47: the terms' dialog and its form kit were
 * loaded at every sign-in only to close at once).
 */
export type GateCheck<S = any> = (screen: S) => Promise<boolean>;
