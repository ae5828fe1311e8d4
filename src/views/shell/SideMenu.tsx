import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import type { Role } from '../../domain/roles';
import { isMenuGroup, type MenuLink, menuFor } from '../../domain/routes';

/** The visible link whose path is the longest prefix of the location: /analytics/heatmap lights Analytics. */
function activePathOf(links: readonly MenuLink[], location: string): string | null {
  let best: string | null = null;
  for (const { path } of links) {
    const matches = location === path || (path !== '/' && location.startsWith(`${path}/`));
    if (matches && (best === null || path.length > best.length)) best = path;
  }
  return best;
}

function MenuItemLink({ entry, activePath }: { entry: MenuLink; activePath: string | null }) {
  const { t } = useTranslation();
  const active = activePath === entry.path;
  return (
    <li>
      <Link
        to={entry.path}
        className={active ? 'sw-menu-link sw-menu-link-active' : 'sw-menu-link'}
        aria-current={active ? 'page' : undefined}
      >
        {t(entry.labelKey)}
      </Link>
    </li>
  );
}

function MenuGroupItem({
  labelKey,
  links,
  activePath,
}: {
  labelKey: string;
  links: readonly MenuLink[];
  activePath: string | null;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <li className="sw-menu-group">
      <span id={headingId} className="sw-menu-group-label">
        {t(labelKey)}
      </span>
      <ul aria-labelledby={headingId}>
        {links.map((link) => (
          <MenuItemLink key={link.path} entry={link} activePath={activePath} />
        ))}
      </ul>
    </li>
  );
}

/**
 * The side menu of spec §2 as the role sees it (DESIGN.md §4). Entries are real links, so Tab
 * and Enter work and the browser's own "open in new tab" does too; group names are headings,
 * not links.
 */
export function SideMenu({ role }: { role: Role }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  const entries = menuFor(role);
  const links = entries.flatMap((entry) => (isMenuGroup(entry) ? entry.children : [entry]));
  const activePath = activePathOf(links, location);
  return (
    <nav className="sw-side-menu" data-testid="side-menu" aria-label={t('menu.label')}>
      <ul>
        {entries.map((entry) =>
          isMenuGroup(entry) ? (
            <MenuGroupItem
              key={entry.labelKey}
              labelKey={entry.labelKey}
              links={entry.children}
              activePath={activePath}
            />
          ) : (
            <MenuItemLink key={entry.path} entry={entry} activePath={activePath} />
          ),
        )}
      </ul>
    </nav>
  );
}
