import { describe, expect, it } from 'vitest';
import { originGuard } from '../../src/mcp/origin.ts';

const withPublicUrl = originGuard({ publicUrl: 'https://influencers.example.com' });
const withoutPublicUrl = originGuard({});

describe('originGuard', () => {
  it.each([
    [{ host: 'influencers.example.com' }],
    [{ host: 'influencers.example.com:443' }],
    [{ host: 'INFLUENCERS.example.com' }],
    [{ host: '127.0.0.1:3000' }],
    [{ host: '[::1]:3000' }],
    [{ host: 'localhost' }],
    [{ origin: 'https://influencers.example.com', host: 'influencers.example.com' }],
    [{ origin: 'https://app.slack.com', host: 'influencers.example.com' }],
    [{ origin: 'https://slack.com', host: 'influencers.example.com' }],
    [{ origin: 'https://app.slack-gov.com', host: 'influencers.example.com' }],
    [{ origin: 'http://localhost:6274', host: 'localhost:3000' }],
    [{ origin: 'http://127.0.0.1:6274', host: 'influencers.example.com' }],
  ])('lets %j through with PUBLIC_URL set', (headers) => {
    expect(withPublicUrl(headers)).toBeUndefined();
  });

  it.each([
    [{}],
    [{ host: 'evil.example.com' }],
    [{ host: 'influencers.example.com.evil.com' }],
    [{ host: 'influencers.example.com:8443' }],
    [{ origin: 'https://evil.example.com', host: 'influencers.example.com' }],
    [{ origin: 'http://influencers.example.com', host: 'influencers.example.com' }],
    [{ origin: 'http://app.slack.com', host: 'influencers.example.com' }],
    [{ origin: 'https://slack.com.evil.com', host: 'influencers.example.com' }],
    [{ origin: 'https://evilslack.com', host: 'influencers.example.com' }],
    [{ origin: 'null', host: 'influencers.example.com' }],
    [{ origin: 'file://', host: 'influencers.example.com' }],
  ])('refuses %j with PUBLIC_URL set', (headers) => {
    expect(withPublicUrl(headers)?.reason).toMatch(/^Forbidden: /);
  });

  it('judges only Origin when the public name is unknown', () => {
    expect(withoutPublicUrl({ host: 'influencers.herokuapp.com' })).toBeUndefined();
    expect(
      withoutPublicUrl({ origin: 'https://app.slack.com', host: 'x.example' }),
    ).toBeUndefined();
    expect(
      withoutPublicUrl({ origin: 'http://evil.example.com', host: 'evil.example.com' }),
    ).toEqual({
      reason:
        'Forbidden: requests from the site http://evil.example.com are not served (the Origin header must be this app’s own address, Slack’s, or localhost).',
    });
  });
});
