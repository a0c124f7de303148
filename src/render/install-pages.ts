/**
 * The pages of "Add to Slack": the install page (what the app does, each scope it asks for and
 * why, the privacy link, the button), the page after a finished install, the pages of an install
 * that did not finish, and the privacy notice. Plain HTML, no script, every value escaped.
 */

/** Why the app asks for each bot scope, in the words the install page shows. */
export const scopeReasons: Readonly<Record<string, string>> = {
  commands: 'adds the /influencers command.',
  'chat:write': 'posts answers, digests and leaderboards where you ask for them.',
  'chat:write.public':
    'posts a digest in a public channel without being invited to it first, when you ask it to.',
  'channels:join': 'joins a public channel before posting a digest there.',
  'channels:read': 'checks a channel exists and who may post there when a digest is set up.',
  'groups:read': 'checks a private channel you set a digest up in.',
  'im:read': 'checks its direct message with you when you set up a digest there.',
  'mpim:read': 'checks a group direct message you set up a digest in.',
  'channels:history':
    'finds its own leaderboard posts again in a public channel, never to post twice.',
  'groups:history': 'finds its own leaderboard posts again in a private channel it was invited to.',
  'im:history': 'reads the questions you send it in a direct message.',
  'im:write': 'opens a direct message with you to send a CSV export.',
  'app_mentions:read': 'answers when someone @mentions it.',
  'assistant:write': 'answers in the AI assistant pane, with its status and suggested questions.',
  'canvases:write': "keeps a channel canvas with a digest's latest report.",
  'files:write': 'sends the CSV exports you ask for.',
  'pins:write': 'pins a conference\u2019s live leaderboard, and unpins the one it replaces.',
  'users:read': 'reads your time zone (so "yesterday" is yours) and who is an admin.',
  'mcp:connect': 'lets Slackbot ask it the same questions you can.',
};

const appName = 'Influencers';

/** Text as HTML: `&`, `<`, `>`, `"` and `'` escaped, so a value never becomes markup. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A whole page around its body; `title` and `body` must already be HTML. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1d1c1d; }
h1 { color: #1d3557; }
dt { font-family: ui-monospace, monospace; font-weight: bold; }
dd { margin: 0 0 0.5rem 1rem; }
.button { display: inline-block; margin: 1rem 0; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

export interface InstallPageOptions {
  /** Slack's authorize URL with the client id, the scopes, the redirect URI and the state. */
  readonly installUrl: string;
  readonly scopes: readonly string[];
  readonly privacyUrl: string;
}

export function installPage(options: InstallPageOptions): string {
  const scopes = options.scopes
    .map(
      (scope) =>
        `<dt>${escapeHtml(scope)}</dt><dd>${escapeHtml(scopeReasons[scope] ?? 'needed by one of its features.')}</dd>`,
    )
    .join('\n');
  return page(
    `Add ${appName} to Slack`,
    `<h1>Add ${appName} to Slack</h1>
<p>${appName} tells you who drove a healthcare conversation on social media: the top influencers of
#hcsm and its friends over any period, asked in plain words with <code>/influencers</code>, in a
direct message or by mentioning it. It can post a digest on a schedule, and live leaderboards
during a conference.</p>
<h2>What it asks Slack for, and why</h2>
<dl>
${scopes}
</dl>
<p>It reads only what is sent to it or posted in its own threads, and stores your digests, their
reports and this workspace's installation (its tokens encrypted). Read the
<a href="${escapeHtml(options.privacyUrl)}">privacy notice</a>.</p>
<p class="button"><a href="${escapeHtml(options.installUrl)}"><img alt="Add to Slack" height="40" width="139" src="https://platform.slack-edge.com/img/add_to_slack.png" srcset="https://platform.slack-edge.com/img/add_to_slack.png 1x, https://platform.slack-edge.com/img/add_to_slack@2x.png 2x"></a></p>
<p>The link is good for ten minutes and one install; open this page again for another.</p>`,
  );
}

export interface InstalledPageOptions {
  /** The workspace's (or organization's) name, as Slack gave it. */
  readonly name?: string;
  /** Opens the app's Home in Slack. */
  readonly homeUrl?: string;
}

export function installedPage(options: InstalledPageOptions): string {
  const where = options.name === undefined ? 'your workspace' : escapeHtml(options.name);
  const home =
    options.homeUrl === undefined
      ? `Open <strong>${appName}</strong> under Apps in Slack`
      : `<a href="${escapeHtml(options.homeUrl)}">Open ${appName}'s Home in Slack</a>`;
  return page(
    `${appName} is installed`,
    `<h1>${appName} is installed in ${where}</h1>
<h2>What to do next</h2>
<ol>
<li>${home}: it shows what you can ask and the digests you have.</li>
<li>An admin of the workspace sets the analytics account ${appName} answers from, on its Home.</li>
<li>Then ask, anywhere: <code>/influencers top 10 #hcsm last week</code>.</li>
</ol>
<p>You can close this page.</p>`,
  );
}

/** Why an install did not finish, as the page says it. */
export type InstallFailure =
  | 'denied'
  | 'state_invalid'
  | 'state_expired'
  | 'state_replayed'
  | 'incomplete'
  | 'refused'
  | 'slack_unavailable'
  | 'store_unavailable'
  | 'unknown';

/** The HTTP status each failure is answered with. */
export const installFailureStatus: Readonly<Record<InstallFailure, number>> = {
  denied: 200,
  state_invalid: 400,
  state_expired: 400,
  state_replayed: 400,
  incomplete: 400,
  refused: 400,
  slack_unavailable: 502,
  store_unavailable: 503,
  unknown: 500,
};

function failureWords(failure: InstallFailure): { title: string; text: string } {
  switch (failure) {
    case 'denied':
      return {
        title: `${appName} was not installed`,
        text: 'You chose not to allow it, so nothing was installed and nothing was stored.',
      };
    case 'state_invalid':
      return {
        title: 'This install link is not valid',
        text: 'It did not start on this app\u2019s install page, or it was opened in another browser. Nothing was installed.',
      };
    case 'state_expired':
      return {
        title: 'This install link has expired',
        text: 'An install link is good for ten minutes. Nothing was installed.',
      };
    case 'state_replayed':
      return {
        title: 'This install link was already used',
        text: 'Each install link works once (a page reloaded or opened twice uses it again). Nothing more was installed.',
      };
    case 'incomplete':
      return {
        title: 'Slack did not finish the install',
        text: 'Slack sent you back without the code that completes an install. Nothing was installed.',
      };
    case 'refused':
      return {
        title: 'Slack refused to complete the install',
        text: 'The code Slack gave was not accepted (it may have been used already, or the app\u2019s settings do not match). Nothing was installed.',
      };
    case 'slack_unavailable':
      return {
        title: 'Slack could not be reached',
        text: 'Slack did not answer while completing the install. Nothing was installed; try again in a few minutes.',
      };
    case 'store_unavailable':
      return {
        title: 'The install could not be saved',
        text: `${appName}\u2019s database did not answer. Try again in a few minutes.`,
      };
    case 'unknown':
      return {
        title: 'The install did not finish',
        text: 'Something went wrong on our side, and it was logged. Try again in a few minutes.',
      };
  }
}

export function installFailedPage(failure: InstallFailure, installPath: string): string {
  const { title, text } = failureWords(failure);
  return page(
    escapeHtml(title),
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
<p><a href="${escapeHtml(installPath)}">Start the install again</a></p>`,
  );
}

export function privacyPage(options: { readonly installPath: string }): string {
  return page(
    `${appName}: privacy`,
    `<h1>${appName}: privacy</h1>
<h2>What it stores</h2>
<ul>
<li>Each workspace's installation: its id and name, the installer's id, the scopes granted and the
bot token, encrypted at rest.</li>
<li>The digests and conferences people set up, with their channels, schedules and the reports they
posted.</li>
<li>The last question asked in a direct message, for half an hour, so a follow-up can build on it.</li>
</ul>
<h2>What it reads</h2>
<p>Only what is sent to it: commands, direct messages, mentions and its own threads. It does not
read channels it is not asked about.</p>
<h2>What it shares</h2>
<p>Questions go to the analytics service it answers from, without your name. Nothing is sold or
shared with anyone else.</p>
<h2>Leaving</h2>
<p>Uninstalling it deletes the workspace's tokens at once and the rest after the retention period.</p>
<p><a href="${escapeHtml(options.installPath)}">Install ${appName}</a></p>`,
  );
}
