/**
 * The one sentence a failed start prints (what failed and what to change), and `npm start`'s usage.
 * Whoever runs the app reads it: a newcomer in a terminal, an operator reading Heroku's logs.
 */
import { unhandled } from './unhandled.ts';

/** Why the app could not start, as data; the Slack layer reads it off the error. */
export type StartFailure =
  | { readonly kind: 'config'; readonly problems: readonly string[] }
  | {
      readonly kind: 'slack_unreachable';
      readonly waitedS: number;
      /** The last failure in a few technical words: `HTTP 503`, `TimeoutError`, `fatal_error`. */
      readonly detail: string;
    }
  | { readonly kind: 'app_token_refused'; readonly reason: string }
  | { readonly kind: 'port_unavailable'; readonly port: number; readonly inUse: boolean }
  | { readonly kind: 'store_unavailable'; readonly where: string; readonly detail: string }
  | { readonly kind: 'unexpected'; readonly detail: string };

const prefix = 'Cannot start: ';

/** `npm start -- --help`: how the mode is chosen and the one option. */
export const startUsageText = `Usage: npm start [-- --tz <zone>]
Runs the bot; the environment (and .env, when there is one) chooses how:
  no SLACK_ variable                       the local console, against the built-in analytics sandbox
  SLACK_APP_TOKEN and SLACK_BOT_TOKEN      Socket Mode, without a public URL
  SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN HTTP mode on $PORT, serving /slack/events
Options:
  --tz <zone>   the console's time zone, e.g. Europe/London (default: this machine's)
  --help, -h    this text
Every variable is described in .env.example.`;

/** One line per problem, each a sentence that says what to change. */
export function startFailureText(failure: StartFailure): string {
  switch (failure.kind) {
    case 'config':
      return failure.problems.length === 1
        ? `${prefix}${failure.problems[0]}`
        : `${prefix}${failure.problems.length} configuration problems.\n  - ${failure.problems.join('\n  - ')}\nEvery variable is described in .env.example.`;
    case 'slack_unreachable':
      return `${prefix}Slack did not confirm SLACK_BOT_TOKEN within ${failure.waitedS} s (last answer: ${failure.detail}); check that this machine reaches Slack (and SLACK_API_URL, if set), then start again.`;
    case 'app_token_refused':
      return `${prefix}Slack refused SLACK_APP_TOKEN (${failure.reason}): create an App-Level Token with the connections:write scope under Basic Information > App-Level Tokens and put it in SLACK_APP_TOKEN.`;
    case 'port_unavailable':
      return failure.inUse
        ? `${prefix}port ${failure.port} is already in use: stop what listens there, or set PORT to a free port.`
        : `${prefix}this process may not listen on port ${failure.port}: set PORT to a port above 1023.`;
    case 'store_unavailable':
      return `${prefix}the digest store (${failure.where}) could not be opened (${failure.detail}): check DATABASE_URL, or unset it to keep digests in SQLite at DIGESTS_SQLITE_PATH.`;
    case 'unexpected':
      return `${prefix}${failure.detail}`;
    default:
      return unhandled(failure, `${prefix}an unexpected error.`);
  }
}
