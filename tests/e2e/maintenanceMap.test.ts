import { mkdirSync } from 'node:fs';
import { and, asc, eq, gte } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { floors, nodeDiagnostics } from '../../server/db/schema';
import { writeNodeDiagnostics } from '../../server/ingest/nodeWriter';
import { floorMates, type NodeReport, nodeReport, nodeStory } from '../../server/simulator/nodeBehaviour';
import { backfillNodeHistory } from '../../server/simulator/nodeHistoryBackfill';
import { loadSiteModel } from '../../server/simulator/siteModel';
import { greatCircleDistance } from '../../src/domain/distance';
import { HEALTH_COLOURS } from '../../src/views/canvas/layers/nodeStyle';
import { batteryBand } from '../../src/views/maintenance/MaintenanceMapNodes';
import type { MaintenanceMapDebug } from '../../src/views/maintenance/MaintenanceMapScreen';
import { browserSuite } from './helpers/browserSuite';
import { pngColoursAt, type Rgb } from './helpers/canvasHarness';
import { E2E_OUTPUT_DIR } from './helpers/outputDir';
import { signIn } from './helpers/pages';

/**
 * The maintenance map driven as a maintenance engineer would, on the demo site's own node story
 * (server/simulator/nodeBehaviour.ts): its last 3 days written at start as `npm start` writes them
 * (one report per node every 5 minutes through the ingest's node writer), then reports now. The
 * four modes are switched by mouse and keyboard, their exclusion and the reset read off the screen,
 * and a replay shows the anchor knocked out of place every morning drifting away from where it
 * was placed.
 */

const SCREENSHOTS = `${E2E_OUTPUT_DIR}/screenshots`;
const byTestId = (id: string) => `[data-testid="${id}"]`;
const HOUR = 3_600_000;
/** Dubai has no daylight saving: local time is UTC+4 all year. */
const DUBAI_OFFSET_MS = 4 * HOUR;

type Modes = Record<'fullscreen' | 'presentation' | 'graph' | 'playback', boolean>;

const rgbOf = (colour: number): Rgb => [(colour >> 16) & 0xff, (colour >> 8) & 0xff, colour & 0xff];
const near = (a: Rgb, b: Rgb, tolerance = 40) => a.every((c, i) => Math.abs(c - b[i]) <= tolerance);

describe('the maintenance map in Chromium', () => {
  const suite = browserSuite();
  let page: Page;
  let knocked: string;
  let nearEnd: string;
  let floorId: number;
  /** Blueprint pixels per metre on that floor. */
  let pxPerMetre: number;

  const debug = () =>
    page.evaluate(() => {
      const element = document.querySelector('[data-testid="maintenance-map"]') as
        | (HTMLElement & { maintenanceMapDebug?: () => MaintenanceMapDebug })
        | null;
      return element?.maintenanceMapDebug?.() ?? null;
    });
  const linksDrawn = async () => {
    const graph = (await debug())?.graph;
    return graph ? graph.links.ok + graph.links.warning + graph.links.bad : 0;
  };
  const modes = async (): Promise<Modes> => {
    const pressed = async (mode: keyof Modes) =>
      (await page.getAttribute(byTestId(`mmap-mode-${mode}`), 'aria-pressed')) === 'true';
    return {
      fullscreen: await pressed('fullscreen'),
      presentation: await pressed('presentation'),
      graph: await pressed('graph'),
      playback: await pressed('playback'),
    };
  };
  /** Whether the app's header is what the page shows at its place (not covered by the map). */
  const headerShown = () =>
    page.evaluate(() => {
      const header = document.querySelector('.sw-header');
      if (!header) return false;
      const box = header.getBoundingClientRect();
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return top !== null && header.contains(top);
    });

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const { db, siteId } = suite.server;
    const model = await loadSiteModel(db, siteId, new Date());
    const story = nodeStory(model);
    knocked = story.cast.knockedAnchor!;
    nearEnd = story.cast.nearEndAnchor!;
    floorId = model.nodes.find((node) => node.nodeId === knocked)!.floorId!;
    // The demo's last 3 days, as `npm start` writes them, then every node's report of now.
    const written = await backfillNodeHistory({ db, siteId, model, nowMs: Date.now() });
    expect(written.rows).toBeGreaterThan(40_000);
    const mates = floorMates(model.nodes);
    const nowMs = Date.now() - 2_000;
    const reports = model.nodes
      .map((node) => nodeReport(node, mates.get(node.nodeId) ?? [], nowMs, story))
      .filter((report): report is NodeReport => report !== null);
    await writeNodeDiagnostics(db, siteId, reports);
    const [floor] = await db.select().from(floors).where(eq(floors.id, floorId));
    pxPerMetre =
      floor.blueprintWidth! /
      greatCircleDistance({ lat: floor.aLat, long: floor.aLong }, { lat: floor.bLat, long: floor.bLong });
    page = await suite.browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
  }, 240_000);

  it('switches the four modes: graph and playback exclude each other, reset clears presentation and full screen', async () => {
    await page.goto(`${suite.server.baseUrl}/maintenance/map?floorId=${floorId}&nodeId=${knocked}`);
    const map = page.locator(byTestId('maintenance-map'));
    await page.waitForSelector(`${byTestId('mmap-canvas')} [data-renderer]`, { timeout: 20_000 });
    const renderer = await page
      .locator(`${byTestId('mmap-canvas')} [data-testid="floor-canvas"]`)
      .getAttribute('data-renderer');
    console.info(`maintenance map canvas renderer: ${renderer}`);
    // The live floor: its nodes drawn, the linked node picked, no links yet.
    await expect
      .poll(async () => (await debug())?.nodes.length ?? 0, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(8);
    await expect.poll(() => page.getAttribute(byTestId('mmap-details'), 'data-node-id')).toBe(knocked);
    expect(await modes()).toEqual({ fullscreen: false, presentation: false, graph: false, playback: false });
    expect(await linksDrawn()).toBe(0);
    expect(await page.isDisabled(byTestId('mmap-mode-reset'))).toBe(true);
    expect(await headerShown()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/maintenance-map-live.png` });

    // The anchor graph: links drawn, coloured by quality; the silent anchor ringed as isolated.
    await page.click(byTestId('mmap-mode-graph'));
    expect(await modes()).toMatchObject({ graph: true, playback: false });
    await expect.poll(linksDrawn).toBeGreaterThan(20);
    const graph = (await debug())!.graph!;
    expect(graph.isolated.length).toBeGreaterThan(0);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SCREENSHOTS}/maintenance-map-graph.png` });

    // Playback leaves the graph, and the graph leaves playback: never both pressed.
    await page.click(byTestId('mmap-mode-playback'));
    expect(await modes()).toMatchObject({ graph: false, playback: true });
    await page.waitForSelector(byTestId('mmap-player'));
    await page.click(byTestId('mmap-mode-graph'));
    expect(await modes()).toMatchObject({ graph: true, playback: false });
    expect(await page.locator(byTestId('mmap-player')).count()).toBe(0);
    // The keyboard: G leaves the graph for the live map (no links), R replays.
    await page.focus(byTestId('maintenance-map'));
    await page.keyboard.press('g');
    expect(await modes()).toMatchObject({ graph: false, playback: false });
    await expect.poll(linksDrawn).toBe(0);
    await page.keyboard.press('r');
    expect(await modes()).toMatchObject({ graph: false, playback: true });

    // Presentation covers the app's header and menu and hides the pickers; full screen combines with it.
    await page.click(byTestId('mmap-mode-presentation'));
    expect(await modes()).toMatchObject({ presentation: true, playback: true });
    await expect.poll(headerShown).toBe(false);
    expect(await page.locator(byTestId('mmap-floor')).isVisible()).toBe(false);
    expect(await map.getAttribute('data-presentation')).toBe('true');
    await page.click(byTestId('mmap-mode-fullscreen'));
    expect(await modes()).toEqual({ fullscreen: true, presentation: true, graph: false, playback: true });
    const fullscreen = await map.getAttribute('data-fullscreen');
    const apiFullscreen = await page.evaluate(
      () => document.fullscreenElement?.getAttribute('data-testid') ?? null,
    );
    console.info(`full screen: ${fullscreen}, document.fullscreenElement: ${apiFullscreen}`);
    expect(['api', 'css']).toContain(fullscreen);
    if (fullscreen === 'api') expect(apiFullscreen).toBe('maintenance-map');
    // The map fills the window.
    const box = (await page.locator(byTestId('mmap-canvas')).boundingBox())!;
    expect(box.width).toBeGreaterThan(1400);
    expect(box.height).toBeGreaterThan(750);
    await page.screenshot({ path: `${SCREENSHOTS}/maintenance-map-presentation.png` });

    // Reset: presentation and full screen off, the replay kept.
    await page.click(byTestId('mmap-mode-reset'));
    expect(await modes()).toEqual({ fullscreen: false, presentation: false, graph: false, playback: true });
    await expect.poll(headerShown).toBe(true);
    expect(await map.getAttribute('data-fullscreen')).toBeNull();
    expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
    expect(await page.locator(byTestId('mmap-player')).count()).toBe(1);
    expect(await page.isDisabled(byTestId('mmap-mode-reset'))).toBe(true);
    // Esc resets too (presentation again, then Esc).
    await page.focus(byTestId('maintenance-map'));
    await page.keyboard.press('p');
    await expect.poll(headerShown).toBe(false);
    await page.keyboard.press('Escape');
    expect(await modes()).toEqual({ fullscreen: false, presentation: false, graph: false, playback: true });
    await expect.poll(headerShown).toBe(true);
  });

  it('replays the knocked anchor drifting from where it was placed, its links changing, a battery turning low', async () => {
    expect(await page.getAttribute(byTestId('mmap-mode-playback'), 'aria-pressed')).toBe('true');
    await page.selectOption(byTestId('mmap-range-preset'), 'h72');
    // One morning: the day of 36 hours ago, 06:00 in Dubai (in place) and 09:30 (knocked out at
    // 06:40, 1.6 m away from 08:10).
    const day = new Date(Date.now() - 36 * HOUR + DUBAI_OFFSET_MS).toISOString().slice(0, 10);
    const local = (time: string) => Date.parse(`${day}T${time}:00Z`) - DUBAI_OFFSET_MS;
    const seek = async (ms: number) => {
      await page.evaluate((target) => {
        const input = document.querySelector('[data-testid="mmap-scrub"]') as HTMLInputElement;
        const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        setter.call(input, String(target));
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }, ms);
      await expect
        .poll(async () => Number(await page.getAttribute(byTestId('mmap-clock'), 'data-ms')), {
          timeout: 10_000,
        })
        .toBe(Math.round(ms / 1000) * 1000);
    };
    const frameOf = async (ms: number) => {
      await seek(ms);
      // The frame at the playhead reaches the layers once its window is in, and is drawn next frame.
      await expect
        .poll(async () => (await debug())?.replayedAt, { timeout: 20_000 })
        .toBe(Math.round(ms / 1000) * 1000);
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
      return (await debug())!;
    };
    const inPlace = await frameOf(local('06:00'));
    const before = inPlace.nodes.find((node) => node.nodeId === knocked)!;
    expect(before.placedAt).toBeNull();
    await page.screenshot({ path: `${SCREENSHOTS}/maintenance-map-playback-before.png` });

    const knockedOut = await frameOf(local('09:30'));
    const after = knockedOut.nodes.find((node) => node.nodeId === knocked)!;
    expect(after.placedAt).not.toBeNull();
    const movedMetres = Math.hypot(after.x - before.x, after.y - before.y) / pxPerMetre;
    expect(movedMetres, `${movedMetres} m`).toBeGreaterThan(1.2);
    expect(movedMetres, `${movedMetres} m`).toBeLessThan(2);
    // Its line goes back to where it stood at dawn, where it was placed.
    expect(Math.hypot(after.placedAt!.x - before.x, after.placedAt!.y - before.y) / pxPerMetre).toBeLessThan(
      0.2,
    );
    // On the page too: the marker is somewhere else on the screen.
    expect(Math.hypot(after.screenX - before.screenX, after.screenY - before.screenY)).toBeGreaterThan(5);
    await page.screenshot({ path: `${SCREENSHOTS}/maintenance-map-playback.png` });

    // Links come and go: the links at the edge of range fade in and out minute by minute, and the
    // knocked anchor's change as it moves.
    const totals = new Set<number>();
    for (const frame of [inPlace, knockedOut]) {
      totals.add(frame.graph!.links.ok + frame.graph!.links.warning + frame.graph!.links.bad);
    }
    for (const time of ['01:00', '03:00', '12:00', '15:00', '18:00', '21:00']) {
      const { graph } = await frameOf(local(time));
      totals.add(graph!.links.ok + graph!.links.warning + graph!.links.bad);
      if (totals.size > 1) break;
    }
    expect(totals.size, `links drawn: ${[...totals]}`).toBeGreaterThan(1);

    // The anchor near the end of its cell: its fill turns from good to low in the 3 days, as its
    // reports say, on the screen.
    const nearEndReports = await suite.server.db
      .select({ ts: nodeDiagnostics.ts, volts: nodeDiagnostics.batteryVoltage })
      .from(nodeDiagnostics)
      .where(
        and(eq(nodeDiagnostics.nodeId, nearEnd), gte(nodeDiagnostics.ts, new Date(Date.now() - 71 * HOUR))),
      )
      .orderBy(asc(nodeDiagnostics.ts));
    const bands = nearEndReports.map((report) => batteryBand('anchor', report.volts!));
    const turn = bands.findIndex((band, i) => i > 0 && band !== bands[i - 1]);
    expect(turn, `bands ${[...new Set(bands)]}`).toBeGreaterThan(0);
    const fillAt = async (ms: number) => {
      const frame = await frameOf(ms);
      const node = frame.nodes.find((candidate) => candidate.nodeId === nearEnd)!;
      const [onScreen] = await pngColoursAt(page, await page.screenshot(), [
        { x: node.screenX, y: node.screenY },
      ]);
      return { fill: node.fill, onScreen };
    };
    const good = await fillAt(nearEndReports[turn - 1].ts.getTime() + 60_000);
    const low = await fillAt(nearEndReports[turn].ts.getTime() + 60_000);
    expect(good.fill).toBe(HEALTH_COLOURS[bands[turn - 1]]);
    expect(low.fill).toBe(HEALTH_COLOURS[bands[turn]]);
    expect(low.fill).not.toBe(good.fill);
    expect(near(good.onScreen, rgbOf(good.fill)), `${good.onScreen}`).toBe(true);
    expect(near(low.onScreen, rgbOf(low.fill)), `${low.onScreen}`).toBe(true);

    // Playing moves the clock on.
    await page.selectOption(byTestId('mmap-speed'), '600');
    const clockMs = async () => Number(await page.getAttribute(byTestId('mmap-clock'), 'data-ms'));
    const paused = await clockMs();
    await page.click(byTestId('mmap-toggle'));
    await expect.poll(clockMs, { timeout: 10_000 }).toBeGreaterThan(paused + 60_000);
    await page.click(byTestId('mmap-toggle'));
  });

  it('reads in Arabic, right to left, the player still left to right', async () => {
    await page.selectOption(byTestId('language-switch'), 'ar');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await expect.poll(() => page.locator(byTestId('mmap-mode-graph')).innerText()).toBe('شبكة المراسي');
    expect(await page.locator(byTestId('mmap-mode-playback')).innerText()).toBe('إعادة التشغيل');
    const leftOf = async (id: string) => (await page.locator(byTestId(id)).boundingBox())!.x;
    expect(await leftOf('mmap-step-back')).toBeLessThan(await leftOf('mmap-step-forward'));
    // The toolbar starts at the right.
    expect(await leftOf('mmap-mode-fullscreen')).toBeGreaterThan(await leftOf('mmap-mode-playback'));
    await page.screenshot({ path: `${SCREENSHOTS}/maintenance-map-ar.png` });
    await page.selectOption(byTestId('language-switch'), 'en');
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
  });
});
