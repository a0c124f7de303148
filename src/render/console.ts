/**
 * The words only the local console prints: its banner, its commands, their answers, its log lines.
 * The console has no Slack to render Block Kit in; its words live here with every other
 * user-facing text.
 */
import { slashCommand } from '../model/commands.ts';

/** `--tz` named a zone this machine does not know. */
export function consoleZoneErrorText(zone: string): string {
  return `Unknown time zone "${zone}" for --tz: use an IANA name such as Europe/Paris or UTC.`;
}

/**
 * Slack settings found in the environment that the console does not use: without the Slack
 * credentials they cannot take effect, and saying so beats letting someone think they do.
 */
export function ignoredSlackSettingsText(names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  const list = names.join(' and ');
  return (
    `${list} ${names.length === 1 ? 'is' : 'are'} set but ignored here: the console starts when ` +
    'none of the Slack credentials (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_APP_TOKEN) is set.'
  );
}

/** What the console understands, shown at start and after `help`. */
export const consoleCommands = [
  `${slashCommand} <lookup>    what you would type in a channel, e.g. ${slashCommand} #hcsm last week`,
  `${slashCommand} digest …    schedule a digest here, e.g. ${slashCommand} digest #hcsm every monday at 9am`,
  "<lookup>                 what you would type in the bot's DM, e.g. #hcsm yesterday or",
  '                         who drove #hcsm last week? (a range ending on a date holds that day)',
  'help                     how to write a lookup',
  '/json                    the Block Kit JSON of the last message; /json on|off to show it every time',
  'clear                    clear the screen',
  'exit                     leave (or end the input, or Ctrl-C twice on an empty line)',
];

/** How to leave the console for a real workspace, printed at start. */
export const connectInstructions = [
  'To connect a real workspace:',
  '  1. https://api.slack.com/apps > Create New App > From a manifest: paste manifest.yml without',
  '     its three url/request_url lines and with socket_mode_enabled: true.',
  '  2. Install it to the workspace; copy the Bot User OAuth Token (xoxb-) to SLACK_BOT_TOKEN.',
  '  3. Socket Mode (no public URL): create an App-Level Token with connections:write and set',
  '     SLACK_APP_TOKEN (xapp-). HTTP: set SLACK_SIGNING_SECRET, deploy, then put the three URLs',
  '     (https://<host>/slack/events) back in the manifest with socket_mode_enabled: false.',
  '  4. Set ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID, ANALYTICS_CLIENT_SECRET; see .env.example.',
  '  docs/deploy.md has every step.',
];

/**
 * The console's first lines: its version, which analytics service answers (`sandboxUrl` when it
 * is the built-in one) and the zone, with how to change it when the machine chose it.
 */
export function consoleBannerText(banner: {
  readonly version: string;
  readonly analyticsUrl: string | undefined;
  readonly sandboxUrl: string | undefined;
  readonly zone: string;
  readonly zoneAsked: boolean;
}): string {
  const analytics =
    banner.analyticsUrl ??
    `built-in sandbox at ${banner.sandboxUrl} (try #hcsm, #bcsm, "breast cancer", group:Oncology)`;
  return [
    `Influencers console (v${banner.version}): the Slack bot without Slack.`,
    `Analytics: ${analytics}. Time zone: ${banner.zone}${banner.zoneAsked ? '' : " (this machine's; change it with --tz <zone>)"}.`,
  ].join('\n');
}

/** The list of console commands under a heading: `Commands` at start, `Console commands` after help. */
export function consoleCommandsText(heading: string): string {
  return `${heading}:\n  ${consoleCommands.join('\n  ')}`;
}

/** Where the console wrote a lookup's CSV export (Slack would send it to the DM). */
export function exportSavedText(path: string): string {
  return `[CSV export saved to ${path}]`;
}

/** `/json` before any message was shown. */
export const noMessageYetText = 'No message yet.';

/** The answer to `/json on` and `/json off`. */
export function jsonModeText(on: boolean): string {
  return `Block Kit JSON after every message: ${on ? 'on' : 'off'}.`;
}

/**
 * A question with several honest readings (`ChoicesError`): one numbered line each, which the
 * person picks by typing its number.
 */
export function choicesText(readings: readonly { meaning: string; command: string }[]): string {
  const lines = readings.map((reading, i) => `  ${i + 1}. ${reading.meaning}: ${reading.command}`);
  return `${lines.join('\n')}\nType a number to ask that one.`;
}

/** A line starting with `/` that is none of the console's commands. */
export function unknownConsoleCommandText(line: string): string {
  return `Unknown command ${line.split(/\s/)[0]}: type help for what this console understands.`;
}

/** Ctrl-C on an empty line: leaving takes a second one, because the session's digests go with it. */
export function leaveConfirmText(digests: number): string {
  const lost =
    digests === 0
      ? 'Digests made in this session are not kept after it.'
      : `The ${digests === 1 ? 'digest' : `${digests} digests`} made in this session will be lost.`;
  return `Press Ctrl-C again to leave. ${lost}`;
}

const levelWords: Readonly<Record<number, string>> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warning',
  50: 'error',
  60: 'fatal',
};

/**
 * A log record as one console line: its level, message and the error's first line, never a stack
 * (`LOG_LEVEL=debug` and the JSON of HTTP mode are for investigating; the console is for people).
 */
export function consoleLogLine(record: {
  readonly level?: unknown;
  readonly msg?: unknown;
  readonly err?: { readonly message?: unknown };
}): string {
  const level = typeof record.level === 'number' ? (levelWords[record.level] ?? 'log') : 'log';
  const message = typeof record.msg === 'string' ? record.msg : '';
  const error =
    typeof record.err?.message === 'string' ? record.err.message.split('\n')[0] : undefined;
  return `[${level}] ${message}${error === undefined || error === message ? '' : `: ${error}`}`;
}
