/** What the shown step of a wizard lets the wizard ask before moving on (each step kind fills it). */
export interface StepHandle {
  validate(): boolean;
}
