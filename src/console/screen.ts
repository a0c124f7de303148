/**
 * The console's terminal: every line it prints, answers, digest posts and log lines alike, goes
 * above the prompt and the half-typed line under it, never over them. Without a terminal (a pipe)
 * there is no prompt, and lines are simply written in order.
 */
import { clearLine, cursorTo, type Interface } from 'node:readline';

export class Screen {
  readonly #output: NodeJS.WritableStream;
  readonly #interactive: boolean;
  #lines: Interface | undefined;
  /** True while the prompt waits for a line, so a line printed now must go above it. */
  #waiting = false;

  constructor(output: NodeJS.WritableStream, interactive: boolean) {
    this.#output = output;
    this.#interactive = interactive;
  }

  /** The readline the prompt belongs to; set once it exists. */
  attach(lines: Interface): void {
    this.#lines = lines;
    lines.setPrompt('> ');
  }

  /** Prints `text` and a line break, above the prompt when one is showing. */
  print(text: string): void {
    if (!this.#waiting || this.#lines === undefined) {
      this.#output.write(`${text}\n`);
      return;
    }
    clearLine(this.#output, 0);
    cursorTo(this.#output, 0);
    this.#output.write(`${text}\n`);
    // Redraws the prompt with what the person had typed, the cursor where it was.
    this.#lines.prompt(true);
  }

  /** Shows the prompt and waits (interactive only). */
  prompt(): void {
    if (!this.#interactive || this.#lines === undefined) return;
    this.#waiting = true;
    this.#lines.prompt();
  }

  /** A line was entered: what follows answers it, below it, until the next prompt. */
  busy(): void {
    this.#waiting = false;
  }

  /** Empties the terminal and puts the cursor at the top (the `clear` command). */
  clear(): void {
    cursorTo(this.#output, 0, 0);
    this.#output.write('\u001b[2J\u001b[3J');
    cursorTo(this.#output, 0, 0);
  }
}
