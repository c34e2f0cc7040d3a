/** The part of madge (no types of its own) that tools/check-cycles.ts uses. */
declare module 'madge' {
  interface MadgeResult {
    circular(): string[][];
    obj(): Record<string, string[]>;
  }
  function madge(path: string | string[], config?: Record<string, unknown>): Promise<MadgeResult>;
  export default madge;
}
