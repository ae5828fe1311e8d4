import { describe, expect, it } from 'vitest';
import { i18n, startI18n } from '../../src/i18n/index';

describe('starting the console in a stored language', () => {
  it('reads right to left from the first render when the stored language is Arabic', async () => {
    await startI18n('ar');
    // What the screens ask to mirror their charts, drawers and legends.
    expect(i18n.dir()).toBe('rtl');
    expect(i18n.t('common.language')).toMatch(/[\u0600-\u06FF]/);
  });
});
