/**
 * Words about a digest's schedule that the digest rules put in a ParseError (creating or resuming a
 * digest whose schedule has no future run); errorText shows them like any parse error.
 */
export function scheduleNeverRunsText(expression: string): string {
  return `The schedule "${expression}" never runs again.`;
}
