/**
 * The last line of `npm test`: how many tests were skipped and why, so that a run without
 * PostgreSQL cannot pass for a full one. vitest's summary counts skipped tests but not why, and
 * each suite's own notice scrolls away with the rest of a long run.
 */
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';

/** A skipped test as the summary sees it. */
export interface SkippedTest {
  /** Suites and test name joined by ` > `. */
  readonly fullName: string;
  /** The test file, relative to the root. */
  readonly file: string;
}

/** One known reason for skipping, and the tests it explains. */
export interface SkipReason {
  /** Why, after "because", and how to run them. */
  readonly why: string;
  explains(test: SkippedTest): boolean;
}

export const allTestsCommand = 'TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test';

/**
 * The suites that skip themselves when the machine lacks something. The PostgreSQL suites name
 * PostgreSQL in their titles (`store contract (PostgreSQL)`, `PostgreSQL adapter`).
 */
export function knownSkipReasons(env: NodeJS.ProcessEnv): SkipReason[] {
  return [
    {
      why: `PostgreSQL tests need TEST_DATABASE_URL (${allTestsCommand} runs them all)`,
      explains: (test) => !env.TEST_DATABASE_URL && test.fullName.includes('PostgreSQL'),
    },
    {
      why: 'no reference manifest schema at ../shared/slack to compare the vendored copy with',
      explains: (test) => test.file.endsWith('test/manifest/manifest.test.ts'),
    },
    {
      why: "this machine's own Node is 24 or later, so npm has no engine warning to hide",
      explains: (test) => test.fullName.startsWith('npm install on a machine with an older Node'),
    },
  ];
}

const count = (n: number) => `${n} ${n === 1 ? 'test' : 'tests'}`;

/** The summary line for a run that ran `ran` tests and skipped `skipped`. */
export function skipSummary(
  ran: number,
  skipped: readonly SkippedTest[],
  reasons: readonly SkipReason[],
): string {
  if (skipped.length === 0) return `All ${count(ran)} ran: none skipped.`;
  const parts: { n: number; why: string }[] = [];
  let left = [...skipped];
  for (const reason of reasons) {
    const explained = left.filter((test) => reason.explains(test));
    if (explained.length === 0) continue;
    parts.push({ n: explained.length, why: reason.why });
    left = left.filter((test) => !reason.explains(test));
  }
  const [first] = left;
  if (first !== undefined) {
    parts.push({
      n: left.length,
      why: `of their own condition or a filter (first: ${first.file} > ${first.fullName})`,
    });
  }
  const [only] = parts;
  if (parts.length === 1 && only !== undefined) {
    return `${count(skipped.length)} skipped because ${only.why}.`;
  }
  const each = parts.map((part) => `${part.n} because ${part.why}`);
  return `${count(skipped.length)} skipped: ${each.join('; ')}.`;
}

/** Prints {@link skipSummary} after vitest's own summary, as the run's last line. */
export class SkipSummaryReporter implements Reporter {
  #vitest: Vitest | undefined;
  readonly #reasons: readonly SkipReason[];

  constructor(reasons: readonly SkipReason[] = knownSkipReasons(process.env)) {
    this.#reasons = reasons;
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason) {
    if (reason === 'interrupted') return;
    let ran = 0;
    const skipped: SkippedTest[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'skipped') {
          skipped.push({ fullName: test.fullName, file: module.relativeModuleId });
        } else if (state === 'passed' || state === 'failed') {
          ran += 1;
        }
      }
    }
    this.#vitest?.logger.log(skipSummary(ran, skipped, this.#reasons));
  }
}
