import { describe, expect, it } from 'vitest';
import {
  AccessDeniedError,
  BadRequestError,
  ChannelUnreachableError,
  ConfigError,
  CredentialsRejectedError,
  DigestNotFoundError,
  DigestPermissionError,
  DigestStoreUnavailableError,
  type ErrorCode,
  ExportFailedError,
  InvalidResponseError,
  NetworkError,
  ParseError,
  RateLimitedError,
  ResponseTooLargeError,
  ServiceUnavailableError,
  SlackBlocksRefusedError,
  SlackCallError,
  SlackRateLimitedError,
  SlackTokenRejectedError,
  TeamNotAllowedError,
  TimeoutError,
  UnauthorizedError,
  UnknownDatabaseError,
} from '../../src/errors.ts';
import { errorText, genericErrorText, renderError } from '../../src/render/errors.ts';
import { checkBlockKitLimits } from '../../src/render/limits.ts';

const generic =
  'Something went wrong on our side while answering. Try again in a moment; if it keeps ' +
  'happening, tell an admin (the details are in the app logs).';

const table: ReadonlyArray<readonly [string, unknown, string]> = [
  [
    'a parse error, in its own words',
    new ParseError(
      'unknown_zone',
      'I don\'t know the time zone "Mars/Base". Try `in Europe/London`.',
      'Mars/Base',
    ),
    'I don\'t know the time zone "Mars/Base". Try `in Europe/London`.',
  ],
  [
    'an unknown database, named',
    new UnknownDatabaseError('#hcsmm'),
    'There is no database called “#hcsmm”. Check the spelling: hashtags keep their `#`, phrases ' +
      'go in quotes, groups are written `group:Name`.',
  ],
  [
    'an unknown database that would be a hashtag with its #, suggesting it',
    new UnknownDatabaseError('hcsm'),
    'There is no database called “hcsm”. Did you mean the hashtag `#hcsm`? Hashtags keep their `#`.',
  ],
  [
    'an unknown numeric ID, without suggesting a hashtag',
    new UnknownDatabaseError('4711'),
    'There is no database called “4711”. Check the spelling: hashtags keep their `#`, phrases ' +
      'go in quotes, groups are written `group:Name`.',
  ],
  [
    'an unknown database without a name',
    new UnknownDatabaseError(undefined),
    'One of the databases you asked for does not exist. Check the spelling: hashtags keep their ' +
      '`#`, phrases go in quotes, groups are written `group:Name`.',
  ],
  [
    'access denied, naming the database',
    new AccessDeniedError('group:Oncology', 'Forbidden'),
    "This app's analytics account has no access to “group:Oncology”. Ask an admin to request " +
      'access, or try another database.',
  ],
  [
    'access denied without a name',
    new AccessDeniedError(undefined),
    "This app's analytics account has no access to a database you asked for. Ask an admin to " +
      'request access, or try another database.',
  ],
  [
    'rejected credentials',
    new CredentialsRejectedError(401),
    "The analytics service rejected this app's credentials, so no lookup can run right now. An " +
      "admin must check the bot's analytics credentials.",
  ],
  [
    'an unauthorized token',
    new UnauthorizedError(),
    "The analytics service refused this app's access, so no lookup can run right now. An admin " +
      "must check the bot's analytics credentials and what they are allowed to read.",
  ],
  [
    'a bad request with the service explanation',
    new BadRequestError(422, 'window too long'),
    'The analytics service did not accept this request. It said: “window too long”. Check the ' +
      'databases and the window, then try again.',
  ],
  [
    'a bad request without explanation',
    new BadRequestError(400),
    'The analytics service did not accept this request. Check the databases and the window, ' +
      'then try again.',
  ],
  [
    'rate limiting with a known wait',
    new RateLimitedError(30_000),
    'The analytics service is getting too many requests right now. Try again in 30 seconds.',
  ],
  [
    'rate limiting with a long wait',
    new RateLimitedError(5 * 60_000),
    'The analytics service is getting too many requests right now. Try again in 5 minutes.',
  ],
  [
    'rate limiting with an unknown wait',
    new RateLimitedError(),
    'The analytics service is getting too many requests right now. Try again in a minute.',
  ],
  [
    'an unavailable service',
    new ServiceUnavailableError(503, 4),
    'The analytics service is having trouble right now. Try again in a few minutes.',
  ],
  [
    'a timeout',
    new TimeoutError('deadline', 30_000),
    'The analytics service took too long to answer. Try again in a few minutes, or ask for a ' +
      'shorter window (for example `last 24 hours`) or fewer databases.',
  ],
  [
    'a network failure',
    new NetworkError('ECONNREFUSED'),
    'The analytics service could not be reached. Try again in a few minutes; if it keeps ' +
      "happening, an admin should check the app's connection to the service.",
  ],
  [
    'an invalid response',
    new InvalidResponseError(200, 'not JSON'),
    'The analytics service sent an answer this app could not read. Try again later; if it keeps ' +
      'happening, tell an admin (the details are in the app logs).',
  ],
  [
    'an answer over the size cap',
    new ResponseTooLargeError({ status: 200, capBytes: 4 * 1024 * 1024, bytesRead: 4_194_305 }),
    'The analytics service sent an answer far larger than any ranking (over 4 MB), so it was ' +
      'not read. Try again later; if it keeps happening, tell an admin (the details are in the ' +
      'app logs).',
  ],
  [
    'a workspace that is not allowed',
    new TeamNotAllowedError('T999'),
    'This app is not enabled for this workspace. Ask the person who runs it to add your workspace.',
  ],
  [
    'a missing digest',
    new DigestNotFoundError('d-42'),
    'There is no digest with id “d-42” here. Use `/influencers digests` to list the digests of ' +
      'this channel.',
  ],
  [
    'a digest someone else created',
    new DigestPermissionError('d-42', 'U0CREATOR'),
    "Only the digest's creator (<@U0CREATOR>) or a workspace admin can change this digest.",
  ],
  [
    'a private channel without the bot',
    new ChannelUnreachableError('C0PRIVATE', 'not_in_channel'),
    "I can't post in <#C0PRIVATE> because I'm not a member of it. If it is a private channel, " +
      'invite me there with `/invite @` followed by this app’s name, then try again.',
  ],
  [
    'an archived channel',
    new ChannelUnreachableError('C0OLD', 'archived'),
    "<#C0OLD> is archived, so I can't post there. Unarchive it or choose another channel.",
  ],
  [
    'a channel that cannot be found',
    new ChannelUnreachableError('C0GONE', 'not_found'),
    "I can't find <#C0GONE>. It may have been deleted, or it is a private channel I'm not in: " +
      'invite me there with `/invite @` followed by this app’s name, then try again.',
  ],
  [
    'a restricted channel',
    new ChannelUnreachableError('C0ANN', 'restricted'),
    "I'm not allowed to post in <#C0ANN>: posting there is restricted. Ask a channel manager to " +
      'allow it, or choose another channel.',
  ],
  [
    'invalid configuration, without its details',
    new ConfigError(['ANALYTICS_CLIENT_SECRET: required']),
    'This app is not configured correctly, so it cannot answer right now. An admin must fix its ' +
      'configuration (the app logs say what is wrong).',
  ],
  [
    'a bot token Slack refused, as a configuration problem without its details',
    new SlackTokenRejectedError('token_revoked'),
    'This app is not configured correctly, so it cannot answer right now. An admin must fix its ' +
      'configuration (the app logs say what is wrong).',
  ],
  [
    'a Slack call that failed',
    new SlackCallError({
      method: 'chat.postMessage',
      reason: 'internal_error',
      transient: true,
      mayHaveActed: true,
      answered: true,
    }),
    'Slack could not be reached or did not accept the request. Try again in a minute.',
  ],
  [
    'Slack rate limiting a post, with its wait',
    new SlackRateLimitedError('chat.postMessage', 30_000),
    'Slack is limiting how fast this app may post right now. Try again in 30 seconds.',
  ],
  [
    'Slack refusing a block it names',
    new SlackBlocksRefusedError('data_table'),
    'Slack refused a “data_table” block of this message, so nothing was posted. Tell an admin (the details are in the app logs).',
  ],
  [
    'an upload the app has no scope for',
    new ExportFailedError('missing_scope', 'D0DM'),
    'I could not send the CSV file: this app was installed without permission to upload files. An admin must reinstall it from manifest.yml (it asks for files:write and im:write), then try again.',
  ],
  [
    'an upload to the thread of a channel without the bot',
    new ExportFailedError('not_in_channel', 'C0SHARED'),
    "I could not send the CSV file to <#C0SHARED> because I'm not a member of it. Invite me with `/invite @` followed by this app’s name, or export from my Messages tab.",
  ],
  [
    'an upload Slack refused',
    new ExportFailedError('refused'),
    'Slack did not accept the CSV file, so nothing was sent. Try again in a minute; if it keeps happening, tell an admin (the details are in the app logs).',
  ],
  [
    'a digest store that does not answer, without its technical reason',
    new DigestStoreUnavailableError('no answer within 5 s'),
    "The app's digest store is not answering right now, so digests can't be created, listed or changed. Lookups still work. Try again in a few minutes; if it lasts, tell an admin (the app logs say what failed).",
  ],
  ['a plain Error', new Error('boom'), generic],
  ['a thrown string', 'boom', generic],
  ['undefined', undefined, generic],
];

describe('errorText', () => {
  it.each(table)('explains %s', (_case, error, expected) => {
    expect(errorText(error)).toBe(expected);
  });

  it('covers every error code', () => {
    const codes: Record<ErrorCode, true> = {
      config_invalid: true,
      parse_error: true,
      credentials_rejected: true,
      unauthorized: true,
      access_denied: true,
      unknown_database: true,
      bad_request: true,
      rate_limited: true,
      service_unavailable: true,
      timeout: true,
      network: true,
      invalid_response: true,
      response_too_large: true,
      team_not_allowed: true,
      digest_not_found: true,
      digest_permission_denied: true,
      store_unavailable: true,
      channel_unreachable: true,
      slack_call_failed: true,
      slack_rate_limited: true,
      slack_blocks_refused: true,
      export_failed: true,
    };
    const covered = new Set(
      table.flatMap(([, error]) =>
        typeof error === 'object' && error !== null && 'code' in error ? [error.code] : [],
      ),
    );
    expect([...covered].sort()).toEqual(Object.keys(codes).sort());
  });

  it('names the bot as a mention in the invite hint when its user id is known', () => {
    expect(
      errorText(new ChannelUnreachableError('C0PRIVATE', 'not_in_channel'), { botUserId: 'U0BOT' }),
    ).toBe(
      "I can't post in <#C0PRIVATE> because I'm not a member of it. If it is a private channel, " +
        'invite me there with /invite <@U0BOT>, then try again.',
    );
  });

  it('names the bot in the invite hint of an export to a channel without it', () => {
    expect(
      errorText(new ExportFailedError('not_in_channel', 'C0SHARED'), { botUserId: 'U0BOT' }),
    ).toContain('Invite me with /invite <@U0BOT>, or export from my Messages tab.');
  });

  it('never shows the credentials or the service message of a credentials error', () => {
    const error = new CredentialsRejectedError(401, { cause: new Error('client_secret=s3cr3t') });
    expect(errorText(error)).not.toMatch(/s3cr3t|401/);
  });

  it('keeps names from users and the service out of the markup', () => {
    expect(errorText(new UnknownDatabaseError('<!channel> *x*'))).toBe(
      'There is no database called “&lt;!channel&gt; ∗x∗”. Check the spelling: hashtags keep ' +
        'their `#`, phrases go in quotes, groups are written `group:Name`.',
    );
    expect(errorText(new ParseError('unrecognised', 'Unrecognised "<@U1>"', '<@U1>'))).toBe(
      'Unrecognised "&lt;@U1&gt;"',
    );
  });

  it('does not turn ids that are not Slack ids into mentions', () => {
    expect(errorText(new DigestPermissionError('d-1', 'U1>|<!channel'))).toBe(
      "Only the digest's creator or a workspace admin can change this digest.",
    );
    expect(errorText(new ChannelUnreachableError('<!here>', 'archived'))).toBe(
      "That channel is archived, so I can't post there. Unarchive it or choose another channel.",
    );
  });

  it('gives the generic text for an error code it does not know', () => {
    const strange = Object.assign(new NetworkError('x'), { code: 'brand_new' });
    expect(errorText(strange)).toBe(genericErrorText);
  });
});

describe('renderError', () => {
  it('marks the words as a problem in the blocks and keeps them as the notification text', () => {
    const message = renderError(new RateLimitedError(30_000));
    expect(message).toEqual({
      text: 'The analytics service is getting too many requests right now. Try again in 30 seconds.',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: ':warning: The analytics service is getting too many requests right now. Try again in 30 seconds.',
          },
        },
      ],
    });
  });

  it('stays within limits for a very long parse error', () => {
    const message = renderError(new ParseError('unrecognised', 'x'.repeat(10_000)));
    expect(checkBlockKitLimits(message)).toEqual([]);
  });
});
