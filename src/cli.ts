/**
 * The project's command line: `node src/cli.ts <command> [...args]` (`npm run cli -- ...`).
 * Commands load on demand, so one command's dependencies never slow another down.
 */
import type { CliCommand, CliIo } from './cli/command.ts';

/** Command words -> module exporting `command`. Adding a command is one line here. */
const commands: Readonly<Record<string, () => Promise<{ command: CliCommand }>>> = {
  parse: () => import('./cli/parse-command.ts'),
  migrate: () => import('./cli/migrate-command.ts'),
  keys: () => import('./cli/keys-command.ts'),
  jobs: () => loadJobsCommand('jobs'),
  // The older name of `jobs run-due`, kept for the schedulers set up with it.
  digests: () => loadJobsCommand('digests'),
};

/** The entry point, not cli/, reaches the Slack layer: it hands the jobs their Slack outlets. */
async function loadJobsCommand(name: 'jobs' | 'digests'): Promise<{ command: CliCommand }> {
  const [{ jobsCommand: command }, { jobOutlets }] = await Promise.all([
    import('./cli/digests-command.ts'),
    import('./slack/web-api/access.ts'),
  ]);
  return { command: command(name, (slack, logger) => jobOutlets(slack, logger)) };
}

/** Finds the longest command whose words start `argv` (`digests run-due` before `digests`). */
function findCommand(
  argv: readonly string[],
): { name: string; rest: readonly string[] } | undefined {
  let found: { name: string; rest: readonly string[] } | undefined;
  for (const name of Object.keys(commands)) {
    const words = name.split(' ');
    if (
      words.every((word, i) => argv[i] === word) &&
      words.length > (found?.name.split(' ').length ?? 0)
    ) {
      found = { name, rest: argv.slice(words.length) };
    }
  }
  return found;
}

async function usage(): Promise<string> {
  const lines = await Promise.all(
    Object.entries(commands).map(async ([name, load]) => {
      const { command } = await load();
      return `  node src/cli.ts ${command.usage.startsWith(name) ? command.usage : name}`;
    }),
  );
  return `Usage:\n${lines.join('\n')}\nEach command takes --help.`;
}

/** `--help` and `-h`, anywhere after the command words, ask for help rather than for work. */
const helpFlags: ReadonlySet<string> = new Set(['--help', '-h']);

/** The process's own streams, clock and environment. */
function processIo(): CliIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    now: () => new Date(),
    env: process.env,
  };
}

/**
 * Runs one command line; resolves to the exit code. `io` defaults to the process's; tests pass
 * their own streams to run a command in-process.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  if (argv[0] !== undefined && helpFlags.has(argv[0])) {
    io.stdout.write(`${await usage()}\n`);
    return 0;
  }
  const found = findCommand(argv);
  if (found === undefined) {
    const what =
      argv[0] === undefined ? 'No command given.' : `Unknown command "${argv.join(' ')}".`;
    io.stderr.write(`${what}\n${await usage()}\n`);
    return 2;
  }
  const loader = commands[found.name] as () => Promise<{ command: CliCommand }>;
  const { command } = await loader();
  if (found.rest.some((arg) => helpFlags.has(arg))) {
    io.stdout.write(`Usage: node src/cli.ts ${command.usage}\n${command.help}\n`);
    return 0;
  }
  return command.run(found.rest, io);
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
