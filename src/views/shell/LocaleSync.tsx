import { useEffect } from 'react';
import { applyLocale } from '../../i18n';
import { useSession } from '../session/SessionProvider';

/**
 * Follows the signed-in user's locale: on restore, on login (forced to en, spec §9) and after a
 * switch. Signed out, the last applied language stays, so the login page keeps it.
 */
export function LocaleSync(): null {
  const { user } = useSession();
  const locale = user?.locale;
  useEffect(() => {
    if (locale) void applyLocale(locale);
  }, [locale]);
  return null;
}
