/**
 * The zero-config local console: what `npm start` runs without Slack credentials. A person types
 * what they would type in Slack and reads the answer as text, produced by the same lookup flow and
 * renderer the Slack handlers use, against the sandbox analytics service started in-process.
 */
import { createInterface, type Interface } from 'node:readline';
import type { AnalyticsApi } from '../analytics/types.ts';
import type { ConsoleConfig } from '../config/app-config.ts';
import { buildCore } from '../core/core.ts';
import type { ConferencePoster } from '../digests/conferences/outlet.ts';
import { sameOutletForEveryTeam } from '../digests/outlets.ts';
import type { DigestPoster } from '../digests/runner.ts';
import { ChoicesError, ParseError } from '../errors.ts';
import { answerConferenceCommand } from '../flows/conference-commands.ts';
import { answerDigestCommand } from '../flows/digest-commands.ts';
import type { DigestAccess } from '../flows/digest-manager.ts';
import { FollowUps } from '../flows/lookup/follow-ups.ts';
import { createLogger, type Logger, withoutUserinfo } from '../logger.ts';
import { slashCommand } from '../model/commands.ts';
import { defined } from '../model/defined.ts';
import type { SlackMessage } from '../model/message.ts';
import { parseConferenceCommand } from '../parsing/conference.ts';
import { parseDigestCommand } from '../parsing/digest.ts';
import { readZoneName } from '../parsing/index.ts';
import { type Subcommand, subcommandOf } from '../parsing/subcommands.ts';
import {
  choicesText,
  connectInstructions,
  consoleBannerText,
  consoleCommandsText,
  consoleLogLine,
  consoleZoneErrorText,
  exportSavedText,
  ignoredSlackSettingsText,
  jsonModeText,
  leaveConfirmText,
  noMessageYetText,
  unknownConsoleCommandText,
} from '../render/console.ts';
import { renderError } from '../render/errors.ts';
import { renderHelp } from '../render/lookups/help.ts';
import { renderDigestHelp } from '../render/management/digest-help.ts';
import { toPlainText } from '../render/text.ts';
import { demoClient, startSandbox } from '../sandbox/server.ts';
import { saveCanvas, saveExport } from './exports.ts';
import { Screen } from './screen.ts';

export interface ConsoleOptions {
  readonly input: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly output: NodeJS.WritableStream;
  /** Where log lines go when the console has no terminal (stderr); in a terminal, above the prompt. */
  readonly errors?: NodeJS.WritableStream;
  /** The level of the console's own logger; ignored when `logger` is given. */
  readonly logLevel?: string;
  readonly logger?: Logger;
  /** The zone relative dates are read in: `--tz`, else the machine's zone. */
  readonly zone?: string;
  /** Replaces the analytics service (tests); otherwise the config's, else the sandbox. */
  readonly analytics?: AnalyticsApi & { close?(): Promise<void> };
  readonly now?: () => Date;
  /** The folder whose `exports/` receives CSV exports; default the working directory. */
  readonly cwd?: string;
}

/**
 * The console is one person in one channel of one workspace. Its digests live in memory until the
 * console exits, so they can never reach a real channel through a store the app shares.
 */
const consoleCaller = { teamId: 'T0CONSOLE', userId: 'U0CONSOLE' } as const;
const consoleChannel = 'C0CONSOLE';
/** The console's DM with the app: its bare lines, whose follow-ups keep the last question. */
const consoleDm = 'D0CONSOLE';
const consoleAccess: DigestAccess = {
  assertCanPost: async () => {},
  isAdmin: async () => true,
};

/** How long exiting may wait for a digest run in flight and the store to close. */
const consoleCloseBudgetMs = 25_000;

/** The machine's zone unless one was asked for; UTC when the machine names none. */
export function consoleZone(requested: string | undefined): string {
  return requested ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}

/**
 * Reads lines until `exit` or the end of the input (terminal or pipe), answering each in order;
 * resolves with the process exit code once every answer has been printed.
 */
export async function runConsole(config: ConsoleConfig, options: ConsoleOptions): Promise<number> {
  const interactive = options.input.isTTY === true;
  const screen = new Screen(options.output, interactive);
  const logger = options.logger ?? consoleLogger(screen, interactive, options);
  const print = (text: string) => screen.print(text);
  const asked = consoleZone(options.zone);
  // The same reading of a zone name as a lookup's: `EST`, `Tokyo`, `UTC+2` as after `in`.
  const read = readZoneName(asked);
  const zone = typeof read === 'string' ? read : undefined;
  if (zone === undefined) {
    print(consoleZoneErrorText(asked));
    return 2;
  }

  let last: SlackMessage | undefined;
  let showJson = false;
  const show = (message: SlackMessage) => {
    last = message;
    // Dates Slack draws in each reader's zone are drawn in the console's.
    print(toPlainText(message, { zone }));
    if (showJson) print(JSON.stringify(message, null, 2));
    print('');
  };

  const sandbox =
    options.analytics || config.analytics
      ? undefined
      : await startSandbox({ port: 0, host: '127.0.0.1' });
  // Digests "post" into the console: the same runner and renderer as in Slack, printed as text.
  const poster: DigestPoster = {
    post: async (channelId, message) => {
      print(
        channelId === consoleDm ? '[digest posted in your DM]' : '[digest posted in this channel]',
      );
      show(message);
      return { ts: `${Date.now() / 1000}` };
    },
    notifyCreator: async (_userId, message) => {
      print('[direct message to you]');
      show(message);
    },
    notifyAdmins: async (_userIds, message) => {
      print('[direct message to you, as an admin]');
      show(message);
    },
    workspace: async () => consoleCaller.teamId,
  };
  // Conferences too: the leaderboard is printed when posted and again at each update.
  const conferencePoster: ConferencePoster = {
    post: async (_channelId, message, threadTs) => {
      print(
        threadTs === undefined
          ? '[leaderboard posted and pinned in this channel]'
          : "[in the leaderboard's thread]",
      );
      show(message);
      return { ts: `${Date.now() / 1000}` };
    },
    update: async (_channelId, _ts, message) => {
      print('[leaderboard updated in place]');
      show(message);
      return 'updated';
    },
    pin: async () => 'pinned',
    unpin: async () => undefined,
    notifyCreator: (userId, message) => poster.notifyCreator(userId, message),
  };
  const now = options.now ?? (() => new Date());
  const canvasFiles = new Set<string>();
  const core = buildCore(
    {
      analytics: config.analytics ?? {
        baseUrl: sandbox?.url ?? '',
        clientId: demoClient.id,
        clientSecret: demoClient.secret,
      },
      lookup: config.lookup,
      // The console's digests live in memory only: they can never reach a real channel.
      storage: { sqlitePath: ':memory:' },
      digests: config.digests,
    },
    {
      logger,
      outlets: sameOutletForEveryTeam({
        poster,
        displayName: async () => 'you',
        // Each canvas is a file the console rewrites at each run; a second digest of a channel
        // gets one of its own, as in Slack.
        canvasWriter: {
          write: async (channelId, canvas, document) => {
            const path = await saveCanvas(channelId, document.markdown, options.cwd, {
              path: canvas?.id,
              taken: canvasFiles,
            });
            canvasFiles.add(path);
            print(`[canvas of this channel written to ${path}]\n`);
            return { kind: 'written', canvas: { id: path, kind: 'channel' } };
          },
        },
        conferencePoster,
      }),
      now,
      ...defined({ analytics: options.analytics }),
    },
  );
  const { lookup: flow, digests: service } = core;
  await core.open();
  // The console's timer runs whatever DIGESTS_ENABLED says: its store lives only as long as it.
  service.runner.start();
  const digests = service.manager;
  // Bare lines are the DM: a follow-up keeps the last question, as in Slack's DM.
  const followUps = new FollowUps({
    questions: () => service.database.lastQuestions,
    logger,
    now,
  });

  print(
    consoleBannerText({
      version: config.version,
      analyticsUrl:
        config.analytics === undefined ? undefined : withoutUserinfo(config.analytics.baseUrl),
      sandboxUrl: sandbox?.url,
      zone,
      zoneAsked: Boolean(options.zone),
    }),
  );
  const ignored = ignoredSlackSettingsText(config.ignoredSlackSettings);
  if (ignored !== undefined) print(ignored);
  print('');
  print(connectInstructions.join('\n'));
  print('');
  print(consoleCommandsText('Commands'));
  print('');

  // Typed after the slash command, in the channel; typed bare, in the DM, where a digest created
  // is delivered. A digest `to me` goes to the DM from anywhere.
  const digest = async (text: string, where: 'channel' | 'dm') => {
    const parsed = parseDigestCommand(text, { now: now(), zone });
    if (parsed instanceof ParseError) return show(renderError(parsed));
    if (parsed.kind === 'help') return show(renderDigestHelp({ command: slashCommand }));
    await answerDigestCommand(
      {
        manager: digests,
        logger,
        now,
        caller: consoleCaller,
        channelId: where === 'dm' ? consoleDm : consoleChannel,
        directMessage: async () => consoleDm,
        ...(where === 'dm' ? { inDirectMessage: true } : {}),
        access: consoleAccess,
        commandName: slashCommand,
        listPages: 'all',
      },
      parsed,
      async (message) => {
        show(message);
        return true;
      },
    );
  };

  const conference = async (text: string) => {
    const parsed = parseConferenceCommand(text, { now: now(), zone });
    if (parsed instanceof ParseError) return show(renderError(parsed));
    const manager = service.conferences;
    if (manager === undefined) return;
    await answerConferenceCommand(
      {
        manager,
        logger,
        now,
        caller: consoleCaller,
        channelId: consoleChannel,
        access: consoleAccess,
        commandName: slashCommand,
      },
      parsed,
      async (message) => show(message),
    );
  };

  // The readings of the last question asked back, which a bare number picks.
  let choices: { readonly commands: readonly string[]; readonly command: string | undefined } = {
    commands: [],
    command: undefined,
  };
  const lookup = async (text: string, command: string | undefined) => {
    const previous = command === undefined ? await followUps.previous(consoleDm) : undefined;
    const plan = flow.plan(text, { zone, ...defined({ command, previous }) });
    choices = { commands: [], command: undefined };
    if (plan.kind !== 'lookup') {
      show(plan.message);
      if (plan.kind === 'invalid' && plan.error instanceof ChoicesError) {
        print(`${choicesText(plan.error.readings)}\n`);
        choices = { commands: plan.error.readings.map((reading) => reading.command), command };
      }
      return;
    }
    if (command === undefined) await followUps.remember(consoleDm, plan.request);
    show(plan.pending);
    // A slash-command answer is ephemeral in Slack, so it carries the Share button; a DM's does not.
    await flow.run(
      plan.request,
      {
        progress: async (message) => show(message),
        finish: async (message) => show(message),
        // Slack would send the file to the DM; here it goes under ./exports/.
        saveExport: async (file) =>
          print(`${exportSavedText(await saveExport(file, options.cwd))}\n`),
        notice: async (message) => show(message),
      },
      { note: plan.note, shareable: command !== undefined },
    );
  };

  const lines = createInterface({
    input: options.input,
    ...(interactive ? { output: options.output, terminal: true } : { terminal: false }),
  });
  screen.attach(lines);
  const madeHere = async () => {
    const { digests: stored } = service.database;
    const [here, dm] = await Promise.all(
      [consoleChannel, consoleDm].map((id) => stored.listByChannel(consoleCaller.teamId, id)),
    );
    return (here?.length ?? 0) + (dm?.length ?? 0);
  };
  onInterrupt(lines, {
    confirm: () => {
      void madeHere().then((count) => print(leaveConfirmText(count)));
    },
  });
  const prompt = () => screen.prompt();
  prompt();
  try {
    for await (const raw of lines) {
      screen.busy();
      const line = raw.trim();
      if (line === 'exit' || line === 'quit' || line === '/exit') break;
      if (line === '') {
        prompt();
        continue;
      }
      const subcommand = commandLineSubcommand(line);
      if (line === 'clear' || line === '/clear') {
        screen.clear();
      } else if (line === 'help' || line === '/help') {
        show(renderHelp({}));
        print(`${consoleCommandsText('Console commands')}\n`);
      } else if (line === '/json' || line === '/json on' || line === '/json off') {
        if (line === '/json on') showJson = true;
        if (line === '/json off') showJson = false;
        if (line === '/json') print(last ? JSON.stringify(last, null, 2) : noMessageYetText);
        else print(jsonModeText(showJson));
        print('');
      } else if (subcommand === 'conference') {
        await conference(line.slice(slashCommand.length).trim());
      } else if (subcommand === 'digest') {
        await digest(line.slice(slashCommand.length).trim(), 'channel');
      } else if (/^\d{1,2}$/.test(line) && choices.commands[Number(line) - 1] !== undefined) {
        const picked = choices;
        await lookup(picked.commands[Number(line) - 1] as string, picked.command);
      } else if (line === slashCommand || line.startsWith(`${slashCommand} `)) {
        await lookup(line.slice(slashCommand.length), slashCommand);
      } else if (line.startsWith('/')) {
        print(`${unknownConsoleCommandText(line)}\n`);
      } else if (subcommandOf(line, { conversation: true }) === 'digest') {
        // As Slack's DM reads it: a digest command, answered and delivered in the DM.
        await digest(line, 'dm');
      } else {
        await lookup(line, undefined);
      }
      prompt();
    }
  } finally {
    lines.close();
    await core.close(consoleCloseBudgetMs);
    await sandbox?.close();
  }
  return 0;
}

/**
 * The console's logger: one short line per record (see `consoleLogLine`), above the prompt in a
 * terminal, on `errors` otherwise, so a failing digest run never writes a stack over what a person
 * is typing.
 */
function consoleLogger(screen: Screen, interactive: boolean, options: ConsoleOptions): Logger {
  const write = (line: string) => {
    const text = consoleLogLine(JSON.parse(line) as Parameters<typeof consoleLogLine>[0]);
    if (interactive) screen.print(text);
    else options.errors?.write(`${text}\n`);
  };
  return createLogger({ level: options.logLevel ?? 'warn', destination: { write } });
}

/**
 * Ctrl-C in a terminal: with something typed, the line is cleared, as a shell does; on an empty
 * line `confirm` says what leaving costs, and a second Ctrl-C in a row leaves.
 */
function onInterrupt(lines: Interface, handlers: { readonly confirm: () => void }): void {
  let armed = false;
  lines.on('line', () => {
    armed = false;
  });
  lines.on('SIGINT', () => {
    if (lines.line.length > 0) {
      armed = false;
      // To the end of the line, then delete everything before the cursor.
      lines.write(null, { ctrl: true, name: 'e' });
      lines.write(null, { ctrl: true, name: 'u' });
      return;
    }
    if (armed) {
      lines.close();
      return;
    }
    armed = true;
    handlers.confirm();
  });
}

/**
 * The subcommand of `/influencers …` (`digest …`, `conference …`), the command in any case, as
 * Slack routes the text after it; undefined for any other line.
 */
function commandLineSubcommand(line: string): Subcommand | undefined {
  if (line.slice(0, slashCommand.length).toLowerCase() !== slashCommand) return undefined;
  const rest = line.slice(slashCommand.length);
  return /^\s/.test(rest) ? subcommandOf(rest) : undefined;
}
