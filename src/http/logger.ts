/**
 * The server's structured log: pino (Fastify's own logger, used directly so the CLI and the server
 * write one format). JSON lines on stderr, so stdout carries only the ready line a script or a
 * supervisor waits for.
 */
import { pino, type Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function createLogger(level: string = 'warn'): Logger {
  return pino({ level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ fd: 2, sync: false }));
}
