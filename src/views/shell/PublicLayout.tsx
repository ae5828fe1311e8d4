import type { ReactNode } from 'react';
import { LanguageSwitch } from './LanguageSwitch';
import './shell.css';

/** Login, password and registration pages: the page itself, with the language switch in a corner. */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="sw-public">
      <LanguageSwitch className="sw-public-language" />
      {children}
    </div>
  );
}
