import { and, eq, isNull, sql } from 'drizzle-orm';
import { workerMessages } from '../../src/domain/workerValidation';
import type { Db } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { helmetAssignments, inventoryItems } from '../db/schema';
import { conflict, notFound } from '../http/errors';

/**
 * Handing a helmet to a worker and taking it back, each in one transaction: the helmet's
 * inventory row (worker_id, assigned_at) and the history row in helmet_assignments. A helmet worn
 * by someone else is 409; two racing assignments of one helmet meet the unique indexes
 * (inventory_items_worker_unique, helmet_assignments_open_unique) and the loser gets the same 409.
 * A worker who already wears another helmet gives it back first.
 */
export async function assignHelmet(
  db: Db,
  input: { siteId: number; workerId: number; helmetId: number; userId: number },
): Promise<{ assignedAt: Date }> {
  const taken = () => conflict(workerMessages.helmetTaken);
  try {
    return await db.transaction(async (tx) => {
      const [helmet] = await tx
        .select({ id: inventoryItems.id, workerId: inventoryItems.workerId })
        .from(inventoryItems)
        .where(
          and(
            eq(inventoryItems.id, input.helmetId),
            eq(inventoryItems.siteId, input.siteId),
            eq(inventoryItems.type, 'helmet'),
          ),
        )
        .for('update');
      if (!helmet) throw notFound('Helmet');
      if (helmet.workerId !== null && helmet.workerId !== input.workerId) throw taken();
      const now = new Date();
      if (helmet.workerId === input.workerId) return { assignedAt: now };
      // The worker's current helmet (if another one) is given back first.
      await releaseWorkerHelmet(tx as unknown as Db, input.workerId, input.userId, now);
      await tx
        .update(inventoryItems)
        .set({ workerId: input.workerId, assignedAt: now, updatedAt: now })
        .where(eq(inventoryItems.id, helmet.id));
      await tx.insert(helmetAssignments).values({
        inventoryItemId: helmet.id,
        workerId: input.workerId,
        assignedAt: now,
        assignedBy: input.userId,
      });
      return { assignedAt: now };
    });
  } catch (error) {
    if (uniqueViolation(error)) throw taken();
    throw error;
  }
}

/** Clears the worker's helmet (if any) and closes its open history row; answers whether one was worn. */
export async function releaseWorkerHelmet(
  db: Db,
  workerId: number,
  userId: number | null,
  now: Date,
): Promise<boolean> {
  const released = await db
    .update(inventoryItems)
    .set({ workerId: null, assignedAt: null, updatedAt: now })
    .where(eq(inventoryItems.workerId, workerId))
    .returning({ id: inventoryItems.id });
  for (const item of released) {
    await db
      .update(helmetAssignments)
      .set({ unassignedAt: now, unassignedBy: userId })
      .where(and(eq(helmetAssignments.inventoryItemId, item.id), isNull(helmetAssignments.unassignedAt)));
  }
  return released.length > 0;
}

export async function unassignHelmet(db: Db, workerId: number, userId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from workers where id = ${workerId} for update`);
    return releaseWorkerHelmet(tx as unknown as Db, workerId, userId, new Date());
  });
}
