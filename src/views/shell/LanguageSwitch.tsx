import { HTMLSelect } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { isLocale, LOCALES } from '../../domain/limits';
import { applyLocale, currentLocale } from '../../i18n';
import { useSession } from '../session/SessionProvider';

/**
 * English / العربية. The texts and the page direction switch at once; a signed-in user's choice
 * is also saved on the account through the session, a signed-out visitor's only in this browser.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const { user, setLocale } = useSession();
  const locale = isLocale(i18n.language) ? i18n.language : currentLocale();

  return (
    <HTMLSelect
      className={className}
      data-testid="language-switch"
      aria-label={t('common.language')}
      minimal
      iconName="caret-down"
      value={locale}
      onChange={(event) => {
        const next = event.currentTarget.value;
        if (!isLocale(next) || next === locale) return;
        void applyLocale(next);
        if (user) setLocale(next);
      }}
      options={LOCALES.map((value) => ({ value, label: t(`common.languages.${value}`) }))}
    />
  );
}
