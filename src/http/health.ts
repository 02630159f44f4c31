/**
 * GET /health: liveness and readiness in one answer for load balancers, supervisors and deploy
 * scripts. 200 with the database's identity while the server answers from an open database; 503 once
 * it is shutting down (so a balancer stops sending before the process goes) or when the database
 * cannot be read. The import id lets a deploy check that a re-import has been picked up.
 */
import type { FastifyInstance } from 'fastify';
import type { ImportIdentity } from './generations.js';
import type { FollowStatusRecord } from '../store/follow-status.js';

export interface HealthSource {
  stopping(): boolean;
  identity(): ImportIdentity;
  generation(): number;
  /** a read of the database (throws when it cannot be read) */
  probe(): Promise<void> | void;
  /** the follower's status, when a follower writes to the database */
  follow(): Promise<FollowStatusRecord | null>;
  /** the lag now, in seconds */
  lag(): number;
}

const started = Date.now();

export function registerHealth(app: FastifyInstance, source: HealthSource): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/health',
    exposeHeadRoute: false,
    handler: async (_request, reply) => {
      reply.header('Cache-Control', 'no-store').type('application/json; charset=utf-8');
      const id = source.identity();
      const base = {
        database: 'open',
        import: { id: id.id, time: id.time, sitename: id.sitename },
        pages: id.pages,
        generation: source.generation(),
        uptime: Math.round((Date.now() - started) / 1000),
        // which process answered: with --workers, each worker is one
        pid: process.pid,
      };
      const follow = await source.follow();
      if (follow !== null) {
        Object.assign(base, {
          follow: {
            upstream: follow.upstream,
            position: follow.position,
            lag: source.lag(),
            checked: follow.checkedAt,
            changesApplied: follow.changesApplied,
            batchesApplied: follow.batchesApplied,
            errors: follow.errors,
            lastError: follow.lastError,
            backlog: follow.backlog,
            reportsPending: follow.reportsPending ?? false,
          },
        });
      }
      if (source.stopping()) return reply.code(503).send(JSON.stringify({ status: 'stopping', ...base }));
      try {
        await source.probe();
      } catch (e) {
        return reply.code(503).send(JSON.stringify({ status: 'error', ...base, database: `unreadable: ${(e as Error).message}` }));
      }
      return reply.code(200).send(JSON.stringify({ status: 'ok', ...base }));
    },
  });
}
