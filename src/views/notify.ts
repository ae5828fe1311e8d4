import { type Intent, OverlayToaster, Position, type Toaster } from '@blueprintjs/core';

let toaster: Promise<Toaster> | null = null;

function getToaster(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({ position: Position.TOP, maxToasts: 4 });
  return toaster;
}

export interface Notice {
  message: string;
  intent?: Intent;
  /** Milliseconds; 0 keeps the toast until dismissed. */
  timeout?: number;
  /** A key replaces an earlier toast with the same key instead of stacking. */
  key?: string;
}

/** The one way the console shows a toast. */
export async function notify({ message, intent = 'none', timeout = 4000, key }: Notice): Promise<void> {
  (await getToaster()).show({ message, intent, timeout }, key);
}

export async function dismissNotice(key: string): Promise<void> {
  (await getToaster()).dismiss(key);
}
