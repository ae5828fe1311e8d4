import { Classes } from '@blueprintjs/core';
import type { ReactNode } from 'react';

/** Every screen's one heading; browser tests find screens by it. */
export function ScreenTitle({ children }: { children: ReactNode }) {
  return (
    <h1 className={`${Classes.HEADING} sw-screen-title`} data-testid="screen-title">
      {children}
    </h1>
  );
}
