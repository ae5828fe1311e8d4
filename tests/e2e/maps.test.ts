import { crc32, deflateSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages';
import { browserSuite } from './helpers/browserSuite';
import { signIn } from './helpers/pages';
import { recordToasts, toastsSeen } from './helpers/toasts';

/** A real PNG (signature, IHDR, one IDAT, IEND): a light floor with a dark border. */
function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const edge = x < 8 || y < 8 || x >= width - 8 || y >= height - 8;
      row.fill(edge ? 40 : 235, 1 + x * 3, 4 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const FLOOR_NAME = 'E2E Roof';
const ZONE_NAME = 'Crane swing zone';
/** A 80 m × 50 m footprint away from the demo floors; a top-left, b top-right, c bottom-right, d bottom-left. */
const CORNERS = {
  a: { lat: '25.3005', long: '55.4' },
  b: { lat: '25.3005', long: '55.4008' },
  c: { lat: '25.3', long: '55.4008' },
  d: { lat: '25.3', long: '55.4' },
};

const byTestId = (id: string) => `[data-testid="${id}"]`;
const zoneItem = (page: Page, name: string) => page.locator(byTestId('zone-item'), { hasText: name });

async function openMaps(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/maps`);
  await page.waitForSelector(byTestId('floor-item'));
}

describe('Maps & Zones in Chromium', () => {
  const env = browserSuite();

  describe('as a site admin', () => {
    let context: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      context = await env.browser.newContext({ viewport: { width: 1400, height: 900 } });
      page = await context.newPage();
      await recordToasts(page);
      await signIn(page, env.server.baseUrl, 'site-admin@demo.sitewatch.dev');
      await openMaps(page, env.server.baseUrl);
    });
    afterAll(() => context?.close());

    it('creates a floor with an uploaded image and corners, and shows it selected on the canvas', async () => {
      await page.click(byTestId('floor-new'));
      await page.waitForSelector(byTestId('floor-form'));
      // The client-side checks speak first: nothing filled in.
      await page.click(byTestId('floor-form-submit'));
      expect(await page.locator('.bp6-dialog').innerText()).toContain(messages.required('Name'));

      await page.fill(`${byTestId('floor-field-name')}`, FLOOR_NAME);
      await page.fill(`${byTestId('floor-field-altitude')}`, '20');
      await page.fill(`${byTestId('floor-field-category')}`, 'Roof');
      await page.setInputFiles(byTestId('floor-field-blueprint'), {
        name: 'roof.png',
        mimeType: 'image/png',
        buffer: makePng(800, 500),
      });
      for (const [corner, { lat, long }] of Object.entries(CORNERS)) {
        // Padded with spaces: the form trims what it sends.
        await page.fill(byTestId(`floor-field-coordinates.${corner}.lat`), ` ${lat} `);
        await page.fill(byTestId(`floor-field-coordinates.${corner}.long`), long);
      }
      // The spec's distance check, the same rule the server applies: a wrong a–b distance is refused.
      await page.fill(byTestId('floor-field-distance'), '1');
      await page.click(byTestId('floor-form-submit'));
      expect(await page.locator('.bp6-dialog').innerText()).toContain(
        "Distance doesn't match the distance between corners a and b",
      );
      await page.fill(byTestId('floor-field-distance'), '');
      await page.click(byTestId('floor-form-submit'));
      await page.waitForSelector(byTestId('floor-form'), { state: 'detached' });

      const selected = page.locator(`${byTestId('floor-item')}[data-selected]`);
      await selected.waitFor();
      expect(await selected.innerText()).toContain(FLOOR_NAME);
      // Highest altitude first (spec §2): the new floor heads the list.
      expect(await page.locator(byTestId('floor-item')).first().innerText()).toContain(FLOOR_NAME);
      await page.waitForSelector(`${byTestId('floor-canvas')}[data-renderer]`);
      await page.waitForSelector(`${byTestId('floor-canvas')} canvas`);
      expect(await page.locator(byTestId('blueprint-error')).count()).toBe(0);
      expect(await toastsSeen(page)).toContain('Floor Created Successfully');
    });

    it('draws a zone by clicking inside the floor and double-clicking, then names it', async () => {
      await page.click(byTestId('zone-draw'));
      await page.waitForSelector(byTestId('zone-drawing'));
      const box = await page.locator(`${byTestId('floor-canvas')} canvas`).boundingBox();
      if (!box) throw new Error('the canvas has no box');
      // The floor is fitted and centred: points around the centre are inside it.
      const cx = box.x + box.width / 2;
      const cy = box.y + box.height / 2;
      const r = Math.min(box.width, box.height) * 0.2;
      await page.mouse.click(cx - r, cy - r);
      await page.mouse.click(cx + r, cy - r);
      await page.mouse.click(cx + r, cy + r);
      expect(await page.locator(byTestId('zone-draw-points')).innerText()).toContain('3');
      await page.mouse.dblclick(cx - r, cy + r);

      await page.waitForSelector(byTestId('zone-naming'));
      await page.fill(byTestId('zone-name-input'), ZONE_NAME);
      await page.selectOption(byTestId('zone-kind-select'), 'restricted');
      await page.click(byTestId('zone-save'));
      await page.waitForSelector(byTestId('zone-naming'), { state: 'detached' });
      await zoneItem(page, ZONE_NAME).waitFor();
      expect(await toastsSeen(page)).toContain('Zone is created successfully');
      await page.screenshot({ path: 'test-output/screenshots/maps-zone-drawn.png' });
    });

    it('finds the zone again after a reload, by a case-insensitive search', async () => {
      await page.reload();
      await page.waitForSelector(`${byTestId('floor-item')}[data-selected]`);
      expect(await page.locator(`${byTestId('floor-item')}[data-selected]`).innerText()).toContain(
        FLOOR_NAME,
      );
      await zoneItem(page, ZONE_NAME).waitFor();
      expect(await zoneItem(page, ZONE_NAME).innerText()).toContain('Restricted');

      await page.fill(byTestId('zone-search'), 'SWING');
      expect(await page.locator(byTestId('zone-item')).allInnerTexts()).toEqual([
        expect.stringContaining(ZONE_NAME),
      ]);
      await page.fill(byTestId('zone-search'), 'no such zone');
      expect(await page.locator(byTestId('zone-item')).count()).toBe(0);
      await page.fill(byTestId('zone-search'), '');
    });

    it('deletes the zone after the confirmation', async () => {
      await zoneItem(page, ZONE_NAME).locator(byTestId('zone-delete')).click();
      const alert = page.locator('.sw-confirm-delete');
      await alert.waitFor();
      expect(await page.locator(byTestId('confirm-delete-text')).innerText()).toBe(
        messages.confirmDelete(ZONE_NAME),
      );
      await alert.getByRole('button', { name: 'Delete' }).click();
      await zoneItem(page, ZONE_NAME).waitFor({ state: 'detached' });
      // The toast follows the list's refresh: wait for it rather than read once.
      await expect.poll(() => toastsSeen(page)).toContain('Zone is deleted successfully');

      await page.reload();
      await page.waitForSelector(`${byTestId('floor-item')}[data-selected]`);
      await page.locator(byTestId('zones-panel')).getByText(messages.noneAvailable('zones')).waitFor();
      expect(await zoneItem(page, ZONE_NAME).count()).toBe(0);
    });
  });

  describe('as a site viewer', () => {
    let context: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      context = await env.browser.newContext({ viewport: { width: 1400, height: 900 } });
      page = await context.newPage();
      await signIn(page, env.server.baseUrl, 'site-viewer@demo.sitewatch.dev');
      await openMaps(page, env.server.baseUrl);
    });
    afterAll(() => context?.close());

    it('sees the floors and zones without any edit control', async () => {
      await page.waitForSelector(byTestId('maps-read-only'));
      await page.waitForSelector(`${byTestId('floor-canvas')}`);
      // A demo floor: it carries zones (the admin's floor above has none left).
      await page
        .locator(byTestId('floor-item'), { hasText: 'Level 2' })
        .locator(byTestId('floor-select'))
        .click();
      await page.waitForSelector(byTestId('zone-item'));
      expect(await page.locator(byTestId('zone-search')).count()).toBe(1);
      for (const control of [
        'floor-new',
        'floor-edit',
        'floor-duplicate',
        'floor-delete',
        'zone-draw',
        'zone-rename',
        'zone-delete',
      ]) {
        expect(await page.locator(byTestId(control)).count(), control).toBe(0);
      }
      await page.screenshot({ path: 'test-output/screenshots/maps-site-viewer.png' });
    });
  });
});
