/**
 * `GET /healthz` once the app is ready (the gate answers it while starting and while stopping):
 * 503 while the database does not answer (lookups still work, but digests cannot be created or
 * changed, and a platform should know).
 */
import type { ServerResponse } from 'node:http';
import type { StoreHealthReport } from '../../digests/store-health.ts';

export interface HealthRouteOptions {
  /** Said beside `status` (version, mode: never a secret). */
  readonly about: Readonly<Record<string, string>>;
  readonly store: () => Promise<StoreHealthReport>;
}

/** A route for Bolt's `customRoutes`. */
export function healthRoute(options: HealthRouteOptions) {
  return {
    path: '/healthz',
    method: ['GET'],
    handler: (_req: unknown, res: ServerResponse) => {
      const answer = (status: number, body: Record<string, unknown>) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      void options.store().then((store) => {
        if (store.ok) answer(200, { status: 'ok', ...options.about });
        else {
          answer(503, {
            status: 'degraded',
            store: 'unavailable',
            reason: store.reason,
            ...options.about,
          });
        }
      });
    },
  };
}
