import { and, eq, isNotNull } from 'drizzle-orm';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import type { Db } from '../../../server/db/database';
import { type floors, inventoryItems, workers } from '../../../server/db/schema';
import { floorTransform, type GeoPoint, imagePoint } from '../../../src/domain/geo';
import type { BrowserSuite } from './browserSuite';
import { signIn } from './pages';

/** A page signed in as the demo Site Admin, and an MQTT client publishing as the helmets do. */
export async function openLivePage(
  suite: BrowserSuite,
  viewport: { width: number; height: number },
): Promise<{ page: Page; publisher: mqtt.MqttClient }> {
  const publisher = await mqtt.connectAsync(suite.server.brokerUrl!, await suite.server.deviceLogin());
  const page = await suite.browser.newPage({ viewport });
  await signIn(page, suite.server.baseUrl, 'site-admin@demo.sitewatch.dev');
  return { page, publisher };
}

/** The first `count` helmets worn by a worker, in id order. */
export function helmetsOfWorkers(db: Db, count: number) {
  return db
    .select({ helmet: inventoryItems, worker: workers })
    .from(inventoryItems)
    .innerJoin(workers, eq(workers.id, inventoryItems.workerId))
    .where(and(eq(inventoryItems.type, 'helmet'), isNotNull(inventoryItems.workerId)))
    .orderBy(inventoryItems.id)
    .limit(count);
}

/** The place on the floor at fractions (u, v) of its blueprint's width and height. */
export function blueprintPoint(floor: typeof floors.$inferSelect): (u: number, v: number) => GeoPoint {
  const transform = floorTransform(
    {
      a: { lat: floor.aLat, long: floor.aLong },
      b: { lat: floor.bLat, long: floor.bLong },
      c: { lat: floor.cLat, long: floor.cLong },
      d: { lat: floor.dLat, long: floor.dLong },
    },
    { width: floor.blueprintWidth!, height: floor.blueprintHeight! },
  );
  return (u, v) => transform.toGeo(imagePoint(u * floor.blueprintWidth!, v * floor.blueprintHeight!));
}

/** What the floor canvas inside `[data-testid=<containerTestId>]` has drawn, read from the engine. */
export async function drawnWorkers<T>(page: Page, containerTestId: string): Promise<T[]> {
  return page.evaluate((container) => {
    const element = document.querySelector(`[data-testid="${container}"] [data-testid="floor-canvas"]`) as
      | (HTMLElement & { floorCanvasDebug?: () => { workers: unknown[] } | null })
      | null;
    return (element?.floorCanvasDebug?.()?.workers ?? []) as T[];
  }, containerTestId);
}
