/** How every parse message quotes what was typed and closes on a command that works. */
import { slashCommand } from '../../model/commands.ts';

/** `Try: /influencers <args>`, the closing line of every message. */
export function exampleCommand(args: string): string {
  return `${slashCommand} ${args}`;
}

/** Quotes a fragment with typographic quotes, so straight quotes inside it stay legible. */
export function quote(fragment: string): string {
  return `“${fragment}”`;
}
