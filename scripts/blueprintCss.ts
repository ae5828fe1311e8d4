import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/**
 * Blueprint's stylesheet in two parts (issue 15: the login route at most 200 KB gzipped).
 * `virtual:blueprint-public.css` holds what the signed-out pages draw (base, typography, buttons,
 * forms, cards, callouts, selects, spinners, toasts, icons) and is imported by src/main.tsx;
 * `virtual:blueprint-screens.css` holds the widgets only signed-in screens draw (menus,
 * popovers, dialogs, tags, tabs...) and ships with their chunk. Blueprint 6 publishes one
 * compiled stylesheet only, so it is cut here by selector, keeping each part in the original order.
 */
export const BLUEPRINT_PUBLIC_CSS = 'virtual:blueprint-public.css';
export const BLUEPRINT_SCREENS_CSS = 'virtual:blueprint-screens.css';

/**
 * Blueprint class names (after `bp6-`, alone or as the start of a longer class such as
 * `bp6-menu-item`) of the widgets no signed-out page renders: a selector that names one of them
 * only ever matches inside a signed-in screen. The signed-out pages draw buttons, text inputs,
 * cards, callouts, the language select, spinners, toasts and non-ideal states; adding another
 * Blueprint widget to them means taking its class off this list.
 */
const SCREENS_ONLY_CLASS = new RegExp(
  `\\.bp6-(?:${[
    'alert',
    'breadcrumb',
    'breadcrumbs',
    'button-group',
    'checkbox',
    'card-list',
    'collapse',
    'compound-tag',
    'context-menu',
    'control',
    'dialog',
    'divider',
    'drawer',
    'editable-text',
    'entity-title',
    'file-input',
    'file-upload-input',
    'hotkey',
    'hotkeys',
    'html-table',
    'key',
    'menu',
    'multistep-dialog',
    'navbar',
    'numeric-input',
    'overflow-list',
    'panel-stack',
    'panel-stack2',
    'popover',
    'progress-bar',
    'radio',
    'section',
    'segmented-control',
    'skeleton',
    'slider',
    'submenu',
    'switch',
    'tab',
    'tabs',
    'tag',
    'tooltip',
    'tree',
    // Not a widget: the dark theme, which the console never turns on (no element has the class).
    'dark',
  ].join('|')})(?:-[\\w-]+)?(?![\\w-])`,
);

/**
 * The icon font's glyphs (`.bp6-icon-add::before { content: "\f109" }`): they draw only with
 * blueprint-icons.css, which the console does not load (its icons are SVG, all loaded at start).
 */
const ICON_GLYPH_RULE = /^\.bp6-icon-[\w-]+::before\s*\{\s*content:\s*"\\[0-9a-f]+";?\s*\}$/i;

/** Top-level statements of a stylesheet: rules, at-rules with blocks, and `@charset`-like lines. */
export function topLevelStatements(css: string): string[] {
  const statements: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    const char = css[i];
    if (char === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end === -1 ? css.length : end + 1;
    } else if (char === '"' || char === "'") {
      for (i++; i < css.length && css[i] !== char; i++) if (css[i] === '\\') i++;
    } else if (char === '{') {
      depth++;
    } else if (char === '}' || (char === ';' && depth === 0)) {
      if (char === '}') depth--;
      if (depth === 0) {
        statements.push(css.slice(start, i + 1).trim());
        start = i + 1;
      }
    }
  }
  return statements.filter((statement) => statement !== '' && !statement.startsWith('/*'));
}

/** Splits a selector list at its top-level commas (not those inside `:not(a, b)`). */
function selectorsOf(prelude: string): string[] {
  const selectors: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < prelude.length; i++) {
    if (prelude[i] === '(') depth++;
    else if (prelude[i] === ')') depth--;
    else if (prelude[i] === ',' && depth === 0) {
      selectors.push(prelude.slice(start, i).trim());
      start = i + 1;
    }
  }
  selectors.push(prelude.slice(start).trim());
  return selectors;
}

function isScreensOnly(selector: string): boolean {
  return SCREENS_ONLY_CLASS.test(selector);
}

interface CssParts {
  public: string[];
  screens: string[];
}

function splitStatement(statement: string, parts: CssParts): void {
  const open = statement.indexOf('{');
  if (open === -1 || statement.startsWith('@keyframes') || statement.startsWith('@font-face')) {
    parts.public.push(statement);
    return;
  }
  const prelude = statement.slice(0, open).trim();
  const body = statement.slice(open + 1, statement.lastIndexOf('}'));
  if (prelude.startsWith('@')) {
    // @media and @supports: their rules are split the same way, each part keeping the wrapper.
    const inner: CssParts = { public: [], screens: [] };
    for (const nested of topLevelStatements(body)) splitStatement(nested, inner);
    if (inner.public.length) parts.public.push(`${prelude}{\n${inner.public.join('\n')}\n}`);
    if (inner.screens.length) parts.screens.push(`${prelude}{\n${inner.screens.join('\n')}\n}`);
    return;
  }
  if (ICON_GLYPH_RULE.test(statement)) return;
  const selectors = selectorsOf(prelude);
  const publicSelectors = selectors.filter((selector) => !isScreensOnly(selector));
  const screensSelectors = selectors.filter(isScreensOnly);
  if (publicSelectors.length) parts.public.push(`${publicSelectors.join(',\n')}{${body}}`);
  if (screensSelectors.length) parts.screens.push(`${screensSelectors.join(',\n')}{${body}}`);
}

/** Blueprint's stylesheet cut in the part the signed-out pages need and the rest. */
export function splitBlueprintCss(css: string): { public: string; screens: string } {
  const parts: CssParts = { public: [], screens: [] };
  for (const statement of topLevelStatements(css)) splitStatement(statement, parts);
  return { public: parts.public.join('\n'), screens: parts.screens.join('\n') };
}

/** Serves the two parts as virtual CSS modules (ids ending in .css, so Vite's CSS pipeline takes them). */
export function blueprintCssPlugin(): Plugin {
  const ids: Record<string, 'public' | 'screens'> = {
    [BLUEPRINT_PUBLIC_CSS]: 'public',
    [BLUEPRINT_SCREENS_CSS]: 'screens',
  };
  const resolved = (part: string) => `/@blueprint-css/${part}.css`;
  let split: { public: string; screens: string } | null = null;
  return {
    name: 'sitewatch:blueprint-css',
    resolveId(id) {
      const part = ids[id];
      return part ? resolved(part) : null;
    },
    load(id) {
      const part = id === resolved('public') ? 'public' : id === resolved('screens') ? 'screens' : null;
      if (!part) return null;
      if (!split) {
        const require = createRequire(import.meta.url);
        const file = require.resolve('@blueprintjs/core/lib/css/blueprint.css');
        split = splitBlueprintCss(readFileSync(file, 'utf8'));
      }
      return split[part];
    },
  };
}
