import { describe, expect, it } from 'vitest';
import type { IngestLogger } from '../../server/ingest/ingestLogger';
import { RejectionLog } from '../../server/ingest/rejectionLog';

function recordingLogger(): IngestLogger & {
  lines: { details: Record<string, unknown>; message: string }[];
} {
  const lines: { details: Record<string, unknown>; message: string }[] = [];
  const record = (details: object, message: string) => {
    lines.push({ details: details as Record<string, unknown>, message });
  };
  return { lines, info: record, warn: record, error: record };
}

describe('rejection log', () => {
  const source = { siteId: 7, topic: 'sitewatch/7/positions' };

  it('counts every dropped entry per reason but logs each reason at most once a minute', () => {
    const logger = recordingLogger();
    let now = 0;
    const log = new RejectionLog({ logger, clock: () => now });

    log.record(
      [{ reason: 'badShape', entry: { tag: 1 } }, { reason: 'badShape' }, { reason: 'unknownTag' }],
      source,
    );
    now = 30_000;
    for (let i = 0; i < 100; i++) log.record([{ reason: 'badShape' }], source);
    expect(logger.lines.map((l) => l.details.reason)).toEqual(['badShape', 'unknownTag']);
    expect(logger.lines[0].details).toMatchObject({ dropped: 1, total: 1, siteId: 7, sample: '{"tag":1}' });

    now = 60_000;
    log.record([{ reason: 'badShape' }], source);
    expect(logger.lines).toHaveLength(3);
    // The line after a quiet minute says how many went unlogged since the last one.
    expect(logger.lines[2]).toMatchObject({
      details: { reason: 'badShape', dropped: 102, total: 103 },
      message: 'ingest dropped 102 badShape entries',
    });
    expect(log.stats()).toEqual({
      badJson: 0,
      badShape: 103,
      unknownTag: 1,
      unknownFloor: 0,
      outOfRange: 0,
      futureTimestamp: 0,
      beyondRetention: 0,
      controlCharacter: 0,
      refusedByDatabase: 0,
    });
  });

  it('cuts a long sample so junk does not flood the log', () => {
    const logger = recordingLogger();
    new RejectionLog({ logger }).record([{ reason: 'badShape', entry: 'x'.repeat(10_000) }], source);
    expect(String(logger.lines[0].details.sample).length).toBeLessThanOrEqual(201);
  });
});
