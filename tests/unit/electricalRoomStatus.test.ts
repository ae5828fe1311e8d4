import { describe, expect, it } from 'vitest';
import {
  checklistProgress,
  ELECTRICAL_ROOM_STEP_WORDS,
  ELECTRICAL_ROOM_STEPS,
  isElectricalRoomStep,
  stepWords,
} from '../../src/domain/electricalRoomChecklist';
import {
  gatewayConnection,
  latestReport,
  SINK_MAINS_MIN_VOLTS,
  sinkConnection,
  sinkStatus,
} from '../../src/domain/electricalRoomStatus';
import { BATTERY_VOLTS, SILENT_AFTER_S } from '../../src/domain/nodeHealth';

const NOW = Date.parse('2026-11-27T08:00:00Z');
const ago = (seconds: number) => NOW - seconds * 1000;

describe("a sink's power and connection", () => {
  it('is on the mains from the sink warning voltage up, low below it', () => {
    expect(SINK_MAINS_MIN_VOLTS).toBe(BATTERY_VOLTS.sink.warning);
    expect(sinkStatus({ tsMs: ago(10), supplyVoltage: 5.01 }, NOW)).toEqual({
      power: 'mains',
      connection: 'connected',
      ageSeconds: 10,
    });
    expect(sinkStatus({ tsMs: ago(10), supplyVoltage: SINK_MAINS_MIN_VOLTS }, NOW).power).toBe('mains');
    expect(sinkStatus({ tsMs: ago(10), supplyVoltage: SINK_MAINS_MIN_VOLTS - 0.01 }, NOW).power).toBe('low');
    expect(sinkStatus({ tsMs: ago(10), supplyVoltage: 4.25 }, NOW).power).toBe('low');
  });

  it('follows the node heartbeat bands: connected, then stale, then silent', () => {
    expect(sinkConnection(0)).toBe('connected');
    expect(sinkConnection(SILENT_AFTER_S.warning - 0.001)).toBe('connected');
    expect(sinkConnection(SILENT_AFTER_S.warning)).toBe('stale');
    expect(sinkConnection(SILENT_AFTER_S.bad - 0.001)).toBe('stale');
    expect(sinkConnection(SILENT_AFTER_S.bad)).toBe('silent');
    expect(sinkConnection(null)).toBe('silent');
    expect(sinkStatus({ tsMs: ago(SILENT_AFTER_S.warning + 5), supplyVoltage: 5 }, NOW)).toMatchObject({
      power: 'mains',
      connection: 'stale',
    });
  });

  it('knows nothing of the power of a sink that never reported, is silent, or sent no voltage', () => {
    expect(sinkStatus(null, NOW)).toEqual({ power: 'unknown', connection: 'silent', ageSeconds: null });
    expect(sinkStatus({ tsMs: ago(SILENT_AFTER_S.bad), supplyVoltage: 5 }, NOW).power).toBe('unknown');
    expect(sinkStatus({ tsMs: ago(5), supplyVoltage: null }, NOW)).toMatchObject({
      power: 'unknown',
      connection: 'connected',
    });
    expect(sinkStatus({ tsMs: ago(5), supplyVoltage: Number.NaN }, NOW).power).toBe('unknown');
  });

  it('takes a report from a clock running ahead as just now', () => {
    expect(sinkStatus({ tsMs: NOW + 60_000, supplyVoltage: 5 }, NOW)).toEqual({
      power: 'mains',
      connection: 'connected',
      ageSeconds: 0,
    });
  });
});

describe("a gateway's connection", () => {
  it('is connected while a node of its network was heard within the silence window', () => {
    expect(gatewayConnection(ago(0), NOW, 30)).toBe('connected');
    expect(gatewayConnection(ago(29.9), NOW, 30)).toBe('connected');
    expect(gatewayConnection(ago(30), NOW, 30)).toBe('disconnected');
    expect(gatewayConnection(ago(3600), NOW, 30)).toBe('disconnected');
    expect(gatewayConnection(ago(45), NOW, 60)).toBe('connected');
    expect(gatewayConnection(null, NOW, 30)).toBe('disconnected');
  });

  it('is judged on the latest report of any of its nodes', () => {
    expect(latestReport([ago(100), null, ago(5), ago(40)])).toBe(ago(5));
    expect(latestReport([])).toBeNull();
    expect(latestReport([null, null])).toBeNull();
    expect(gatewayConnection(latestReport([ago(100), ago(5)]), NOW, 30)).toBe('connected');
  });
});

describe('the installation checklist', () => {
  it('has eight steps in a fixed order, each with English and Arabic words', () => {
    expect(ELECTRICAL_ROOM_STEPS).toEqual([
      'powerSupply',
      'ups',
      'mounting',
      'gatewayPowered',
      'uplink',
      'sinksMounted',
      'sinksReporting',
      'labelsAndPhotos',
    ]);
    for (const step of ELECTRICAL_ROOM_STEPS) {
      expect(ELECTRICAL_ROOM_STEP_WORDS.en[step].title).toMatch(/^[A-Z]/);
      expect(ELECTRICAL_ROOM_STEP_WORDS.ar[step].title).toMatch(/[\u0600-\u06FF]/);
      expect(ELECTRICAL_ROOM_STEP_WORDS.ar[step].detail).toMatch(/[\u0600-\u06FF]/);
    }
    expect(stepWords('ups', 'ar-AE')).toBe(ELECTRICAL_ROOM_STEP_WORDS.ar.ups);
    expect(stepWords('ups', 'fr')).toBe(ELECTRICAL_ROOM_STEP_WORDS.en.ups);
  });

  it('knows its own keys only', () => {
    expect(isElectricalRoomStep('uplink')).toBe(true);
    expect(isElectricalRoomStep('paint')).toBe(false);
    expect(isElectricalRoomStep('toString')).toBe(false);
    expect(isElectricalRoomStep(3)).toBe(false);
  });

  it('counts progress over the known steps, a full room only at 100 %', () => {
    expect(checklistProgress([])).toEqual({ done: 0, total: 8, percent: 0 });
    expect(checklistProgress(['ups', 'ups', 'paint'])).toEqual({ done: 1, total: 8, percent: 12 });
    expect(checklistProgress(ELECTRICAL_ROOM_STEPS.slice(0, 7)).percent).toBe(87);
    expect(checklistProgress(ELECTRICAL_ROOM_STEPS)).toEqual({ done: 8, total: 8, percent: 100 });
  });
});
