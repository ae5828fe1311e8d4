import type { ReactNode } from 'react';
import type { ApiUser } from '../../domain/user';
import { AppHeader } from './AppHeader';
import { SideMenu } from './SideMenu';
import { SideModalProvider } from './SideModal';
import './shell.css';

/**
 * The signed-in layout: header across the top, side menu at the inline start (left in English,
 * right in Arabic), the screen in the rest.
 */
export function AppShell({ user, children }: { user: ApiUser; children: ReactNode }) {
  return (
    <SideModalProvider>
      <div className="sw-shell">
        <AppHeader user={user} />
        <div className="sw-body">
          <SideMenu role={user.user_role} />
          <main className="sw-main">{children}</main>
        </div>
      </div>
    </SideModalProvider>
  );
}
