/**
 * What a screen type's cross-check (`screen-checks/<type>.ts`) is given: the screen being checked,
 * the rest of the configuration, and helpers that record a problem with the file and JSON pointer.
 * server/config/cross-check.ts builds one per screen file. Core code (no React, no DOM): the server
 * imports it, as do the checks of the server's own configuration files (reminders, notifications,
 * webhooks).
 */
import type { ResourceFile } from '../generated/meta';

export interface ConfigProblem {
  file: string;
  pointer: string;
  reason: string;
}

export interface ScreenCheckContext {
  /** The screen's id (its file name under screens/ without .json) and that file's path. */
  id: string;
  file: string;
  screens: Record<string, Record<string, any> & { type: string }>;
  /** Entity and API schemas by $id. */
  schemas: Record<string, Record<string, any>>;
  resources: Record<string, ResourceFile>;
  problem(pointer: string, reason: string): void;
  /** The text key must exist in locales/pl. */
  needKey(pointer: string, key: string): void;
  /** A screen of that id must exist. */
  needScreen(pointer: string, id: string): void;
  /** The entity schema must exist and have that property. */
  needField(pointer: string, entity: string, field: string): void;
  /** A field with valueLabels needs a text for every value its schema's enum allows. */
  needValueLabels(pointer: string, entity: string, item: { id: string; valueLabels?: string }): void;
}

/** The checks of one screen type that a meta-schema alone cannot express (across files). */
export type ScreenCheck = (screen: any, ctx: ScreenCheckContext) => void;

export interface ScreenTypeChecks {
  type: string;
  check: ScreenCheck;
}

/** Declares a type's checks, keeping the type's name literal (screen-types.ts derives ScreenType from it). */
export function screenChecks<T extends string>(type: T, check: ScreenCheck = () => {}): { type: T; check: ScreenCheck } {
  return { type, check };
}
