import { describe, expect, it } from 'vitest';
import {
  installedPage,
  installFailedPage,
  installPage,
  scopeReasons,
} from '../../../src/render/install-pages.ts';
import {
  authorizationUrl,
  installFailure,
  requestedScopes,
} from '../../../src/slack/oauth/install-routes.ts';
import { StateRejectedError } from '../../../src/slack/oauth/state.ts';

describe('the install pages', () => {
  it('say why the app asks for every scope it asks for', () => {
    const scopes = requestedScopes();
    expect(scopes).toContain('commands');
    expect(scopes.filter((scope) => scopeReasons[scope] === undefined)).toEqual([]);
  });

  it('escape every value they show', () => {
    const html = installPage({
      installUrl: 'https://slack.com/oauth/v2/authorize?a=1&b="><script>',
      scopes: ['commands'],
      privacyUrl: 'https://example.com/p?x=<y>',
    });
    expect(html).toContain('authorize?a=1&amp;b=&quot;&gt;&lt;script&gt;');
    expect(html).toContain('href="https://example.com/p?x=&lt;y&gt;"');
    expect(html).not.toContain('<script');
    expect(installedPage({ name: '<b>Team</b>' })).toContain(
      'installed in &lt;b&gt;Team&lt;/b&gt;',
    );
  });

  it('tell each failure in words, with the way to start again', () => {
    const html = installFailedPage('state_expired', '/slack/install');
    expect(html).toContain('This install link has expired');
    expect(html).toContain('<a href="/slack/install">Start the install again</a>');
  });
});

describe('installFailure', () => {
  it.each([
    [{ code: 'slack_oauth_installer_authorization_error' }, 'denied'],
    [{ code: 'slack_oauth_missing_state' }, 'state_invalid'],
    [{ code: 'slack_oauth_invalid_state' }, 'state_invalid'],
    [{ code: 'slack_oauth_missing_code' }, 'incomplete'],
    [{ code: 'slack_webapi_platform_error' }, 'refused'],
    [{ code: 'slack_webapi_request_error' }, 'slack_unavailable'],
    [{ code: 'slack_webapi_http_error' }, 'slack_unavailable'],
    [new StateRejectedError('replayed'), 'state_replayed'],
    [new StateRejectedError('expired'), 'state_expired'],
    [new StateRejectedError('forged'), 'state_invalid'],
    [new Error('anything else'), 'unknown'],
  ])('reads %o as %s', (error, failure) => {
    expect(installFailure(error)).toBe(failure);
  });
});

describe('authorizationUrl', () => {
  it("is on the host SLACK_API_URL names, Slack's own by default", () => {
    expect(authorizationUrl(undefined)).toBe('https://slack.com/oauth/v2/authorize');
    expect(authorizationUrl('https://slack-gov.com/api/')).toBe(
      'https://slack-gov.com/oauth/v2/authorize',
    );
  });
});
