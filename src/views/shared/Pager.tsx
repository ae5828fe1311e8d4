import { Button } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../domain/numberFormat';
import './pager.css';

interface PagerProps {
  page: number;
  pages: number;
  onPage(page: number): void;
  /** The nav's test id; its buttons are `<testId>-previous` and `<testId>-next`. */
  testId: string;
  /** What it reads between the buttons, when more than "Page 2 of 13" (e.g. with the row count). */
  text?: string;
  /** Shown on a single page too, where its text carries something worth reading. */
  showSinglePage?: boolean;
}

/** Previous / next page buttons around "Page 2 of 13"; arrows point the reading direction's way. */
export function Pager({ page, pages, onPage, testId, text, showSinglePage = false }: PagerProps) {
  const { t, i18n } = useTranslation();
  const rtl = i18n.dir(i18n.language) === 'rtl';
  if (pages <= 1 && !showSinglePage) return null;
  return (
    <nav className="sw-pager" aria-label={t('common.pager.label')} data-testid={testId}>
      <Button
        variant="minimal"
        icon={rtl ? 'chevron-right' : 'chevron-left'}
        aria-label={t('common.pager.previous')}
        data-testid={`${testId}-previous`}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      />
      <span aria-live="polite">
        {text ?? t('common.pager.page', { page: formatCount(page), pages: formatCount(pages) })}
      </span>
      <Button
        variant="minimal"
        icon={rtl ? 'chevron-left' : 'chevron-right'}
        aria-label={t('common.pager.next')}
        data-testid={`${testId}-next`}
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      />
    </nav>
  );
}
