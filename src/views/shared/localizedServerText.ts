import type { TFunction } from 'i18next';
import { CORE_MESSAGE_CATALOG, labelKey, type MessageKey } from '../../domain/messageCatalogCore';
import { i18n } from '../../i18n';

/** The console's translate function, or null before i18n starts (unit tests): English then. */
function activeTranslate(): TFunction | null {
  return i18n.isInitialized ? (i18n.t.bind(i18n) as TFunction) : null;
}

/**
 * A text the server sent, in the user's language: by the key and values it came with, else by the
 * key the core catalogue knows for the English text (serverMessage.ts looks texts up in the whole
 * catalogue, src/domain/messageCatalog.ts); a text outside the catalogue stays as sent.
 * A `label` value ("Crew", "Name") is translated too when the i18n files know it.
 */
export function localizedServerText(
  english: string,
  described: MessageKey | undefined = CORE_MESSAGE_CATALOG.keyOf(english),
  t: TFunction | null = activeTranslate(),
): string {
  if (!t || !described) return english;
  const params: Record<string, string | number> = { ...described.params };
  if (typeof params.label === 'string') {
    params.label = t(labelKey(params.label), { defaultValue: params.label });
  }
  return t(described.key, { ...params, defaultValue: english });
}
