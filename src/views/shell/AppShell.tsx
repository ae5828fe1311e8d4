import { type ReactNode, useState } from 'react';
import { useLocation } from 'wouter';
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
  // On a phone the menu hides behind the header's menu button and closes once a screen is chosen.
  const [location] = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const menuOpen = openAt === location;
  return (
    <SideModalProvider>
      <div className={menuOpen ? 'sw-shell sw-shell--menu-open' : 'sw-shell'}>
        <AppHeader
          user={user}
          menuOpen={menuOpen}
          onToggleMenu={() => setOpenAt(menuOpen ? null : location)}
        />
        <div className="sw-body">
          <SideMenu role={user.user_role} />
          <main className="sw-main">{children}</main>
        </div>
      </div>
    </SideModalProvider>
  );
}
