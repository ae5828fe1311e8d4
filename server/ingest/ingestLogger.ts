/** The part of a pino/Fastify logger the ingest uses; tests pass a recorder. */
export interface IngestLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
