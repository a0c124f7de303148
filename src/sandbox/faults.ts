/**
 * The failures a production client must survive, scripted per endpoint: each scripted fault takes
 * the place of the normal answer to one request, then the sandbox answers normally again.
 */
import { type Answer, json, type StreamedAnswer } from './answer.ts';
import { longPage } from './oversized.ts';
import type { SandboxEndpoint } from './routes.ts';

/** One scripted misbehaviour; `endpoint` defaults to `'data'`. */
export type Fault =
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly retryAfter?: string;
      readonly endpoint?: SandboxEndpoint;
    }
  | { readonly kind: 'revoked-token'; readonly endpoint?: SandboxEndpoint }
  | { readonly kind: 'malformed-json'; readonly endpoint?: SandboxEndpoint }
  | { readonly kind: 'html-error'; readonly status: number; readonly endpoint?: SandboxEndpoint }
  | {
      /** An HTML error page of `bytes` bytes, streamed: a proxy's page with a long trace in it. */
      readonly kind: 'long-error-page';
      readonly status: number;
      readonly bytes: number;
      readonly endpoint?: SandboxEndpoint;
    }
  | { readonly kind: 'slow-headers'; readonly ms: number; readonly endpoint?: SandboxEndpoint }
  | { readonly kind: 'slow-body'; readonly ms: number; readonly endpoint?: SandboxEndpoint }
  | { readonly kind: 'wrong-shape'; readonly endpoint?: SandboxEndpoint }
  | { readonly kind: 'reset'; readonly endpoint?: SandboxEndpoint }
  | {
      /**
       * Answers as if `limit` were not there, with `items` influencers however many were asked
       * for: the whole ranking, then made-up accounts. Streamed; `declareLength` sends its
       * Content-Length (counted beforehand), else it is chunked.
       */
      readonly kind: 'ignores-limit';
      readonly items: number;
      readonly declareLength?: boolean;
      readonly endpoint?: 'data';
    };

/**
 * What a fault does to the one request it meets: drop the connection, answer in place of the
 * route, let the route answer late, or let it answer without its limit.
 */
export type FaultEffect =
  | { readonly kind: 'reset' }
  | { readonly kind: 'answer'; readonly answer: Answer }
  | { readonly kind: 'stream'; readonly answer: StreamedAnswer }
  | { readonly kind: 'late'; readonly headersMs: number; readonly bodyMs: number }
  | { readonly kind: 'unlimited'; readonly items: number; readonly declareLength: boolean };

/** The faults waiting for each endpoint, oldest first. */
export class FaultScript {
  readonly #waiting: Record<SandboxEndpoint, Fault[]> = { token: [], data: [] };

  add(faults: readonly Fault[]): void {
    for (const fault of faults) this.#waiting[fault.endpoint ?? 'data'].push(fault);
  }

  /** The fault for this request, if one is waiting: each fault is used once. */
  take(endpoint: SandboxEndpoint): Fault | undefined {
    return this.#waiting[endpoint].shift();
  }
}

export function faultEffect(fault: Fault, endpoint: SandboxEndpoint): FaultEffect {
  switch (fault.kind) {
    case 'reset':
      return { kind: 'reset' };
    case 'slow-headers':
      return { kind: 'late', headersMs: fault.ms, bodyMs: 0 };
    case 'slow-body':
      return { kind: 'late', headersMs: 0, bodyMs: fault.ms };
    case 'long-error-page':
      return {
        kind: 'stream',
        answer: longPage(
          fault.status,
          `${fault.status} ${statusPhrases[fault.status] ?? 'Error'}`,
          fault.bytes,
        ),
      };
    case 'ignores-limit':
      return {
        kind: 'unlimited',
        items: fault.items,
        declareLength: fault.declareLength ?? false,
      };
    default:
      return { kind: 'answer', answer: cannedAnswer(fault, endpoint) };
  }
}

const statusErrors: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'access_denied',
  404: 'not_found',
  408: 'request_timeout',
  429: 'rate_limit_exceeded',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

const statusPhrases: Readonly<Record<number, string>> = {
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

type CannedFault = Exclude<
  Fault,
  { kind: 'reset' | 'slow-headers' | 'slow-body' | 'ignores-limit' | 'long-error-page' }
>;

/** The answers mimic what the real service and its nginx front send when they fail. */
function cannedAnswer(fault: CannedFault, endpoint: SandboxEndpoint): Answer {
  switch (fault.kind) {
    case 'status':
      return json(
        fault.status,
        {
          error: statusErrors[fault.status] ?? 'error',
          message: `The service answered HTTP ${fault.status}${statusPhrases[fault.status] ? ` (${statusPhrases[fault.status]})` : ''}`,
        },
        fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter },
      );
    case 'revoked-token':
      return endpoint === 'token'
        ? json(
            401,
            { error: 'invalid_client', error_description: 'Client authentication failed' },
            { 'www-authenticate': 'Basic realm="analytics"' },
          )
        : json(
            401,
            { error: 'invalid_token', message: 'The access token has been revoked' },
            {
              'www-authenticate':
                'Bearer realm="analytics", error="invalid_token", error_description="The access token has been revoked"',
            },
          );
    case 'malformed-json':
      return {
        status: 200,
        body:
          endpoint === 'token'
            ? '{"access_token": "abc", "expires_in": 36'
            : '{"influencers": [{"symplurrank": 1, "mentions": 4',
        contentType: 'application/json; charset=utf-8',
      };
    case 'html-error': {
      const phrase = statusPhrases[fault.status] ?? 'Error';
      return {
        status: fault.status,
        body: `<html>\r\n<head><title>${fault.status} ${phrase}</title></head>\r\n<body>\r\n<center><h1>${fault.status} ${phrase}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
        contentType: 'text/html',
      };
    }
    case 'wrong-shape':
      return endpoint === 'token'
        ? json(200, { token_type: 'bearer', status: 'ok' })
        : json(200, { status: 'ok', data: { people: [] }, influencers_count: 0 });
  }
}
