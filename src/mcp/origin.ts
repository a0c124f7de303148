/**
 * Who may address `/mcp` from a browser, and by which name: the defence against DNS rebinding,
 * where a page on another site gets its own name resolved to the app's address and its script
 * calls the app. Such a request carries the other site's name in `Host` and `Origin`, and MCP
 * requires a 403 for an Origin the server does not serve. Decisions:
 * - `Origin` absent: a request from a program (Slack, an MCP client, curl), not a page: allowed;
 * - `Origin` present: allowed for the app's own public origin (`PUBLIC_URL`), for Slack's
 *   (https on slack.com, slack-gov.com and their subdomains) and for loopback (localhost,
 *   127.0.0.1, [::1], any port, where the app is tried out); anything else, `null` included: 403;
 * - `Host`: with `PUBLIC_URL` set, its host or a loopback name, else 403; without it the app's
 *   public name is unknown (a platform's router puts it in `Host`), so `Host` is not judged.
 */

/** Hostnames that name this machine: a request to them was sent to the app on purpose. */
const loopbackHostnames = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Slack's own sites, whose pages may call the app's MCP server (always over https). */
const slackDomains = ['slack.com', 'slack-gov.com'];

export interface OriginPolicy {
  /** `PUBLIC_URL`, the address the app is reached at; undefined: not configured. */
  readonly publicUrl?: string;
}

/** Why a request was refused: the words an HTTP client shows. */
export interface ForeignSite {
  readonly reason: string;
}

function isLoopback(hostname: string): boolean {
  return loopbackHostnames.has(hostname.toLowerCase());
}

function isSlack(url: URL): boolean {
  const hostname = url.hostname.toLowerCase();
  return (
    url.protocol === 'https:' &&
    slackDomains.some((domain) => hostname === domain || hostname.endsWith(`.${domain}`))
  );
}

function originAllowed(origin: string, publicUrl: URL | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return url.origin === publicUrl?.origin || isLoopback(url.hostname) || isSlack(url);
}

/** `Host` as the public URL's scheme reads it, so `example.com:443` is `example.com` for https. */
function hostAllowed(host: string, publicUrl: URL): boolean {
  let url: URL;
  try {
    url = new URL(`${publicUrl.protocol}//${host}`);
  } catch {
    return false;
  }
  return isLoopback(url.hostname) || url.host === publicUrl.host;
}

/**
 * The judge of a request's `Origin` and `Host` headers under `policy`: undefined when the request
 * may go on, else why it may not.
 */
export function originGuard(
  policy: OriginPolicy,
): (headers: {
  origin?: string | undefined;
  host?: string | undefined;
}) => ForeignSite | undefined {
  const publicUrl = policy.publicUrl === undefined ? undefined : new URL(policy.publicUrl);
  return ({ origin, host }) => {
    if (origin !== undefined && !originAllowed(origin, publicUrl)) {
      return {
        reason: `Forbidden: requests from the site ${origin} are not served (the Origin header must be this app’s own address, Slack’s, or localhost).`,
      };
    }
    if (publicUrl !== undefined && !hostAllowed(host ?? '', publicUrl)) {
      return {
        reason: `Forbidden: this server answers as ${publicUrl.host}, not as ${host ?? 'an empty Host header'}.`,
      };
    }
    return undefined;
  };
}
