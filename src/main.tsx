import '@blueprintjs/core/lib/css/blueprint.css';
import './views/shell/shell.css';
import { HotkeysProvider, NonIdealState } from '@blueprintjs/core';
import { Icons } from '@blueprintjs/icons';
import * as Sentry from '@sentry/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { shouldRetryRead } from './api/retryPolicy';
import { messages } from './domain/messages';
import { initI18n } from './i18n';
import { App } from './views/App';
import { errorReportingOptions } from './views/errorReporting';
import { SessionProvider } from './views/session/SessionProvider';

// Error reporting sends only when a DSN is configured at build time; without one Sentry stays off.
const sentryDsn = import.meta.env.VITE_SENTRY_DSN as string | undefined;
Sentry.init({ ...errorReportingOptions(sentryDsn), integrations: [Sentry.browserTracingIntegration()] });

// Every icon up front, in one chunk: a control-room screen that loses its connection later must
// not be left with empty boxes where icons would have loaded on demand.
void Icons.loadAll({ loader: 'all' });

const i18n = initI18n();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: shouldRetryRead,
    },
  },
});

function Crashed() {
  return (
    <main className="sw-center">
      <NonIdealState icon="error" title={messages.somethingWentWrongContactSupport} />
    </main>
  );
}

// The error boundary reports what it catches; errors that escape it are reported here.
const rootOptions = sentryDsn ? { onUncaughtError: Sentry.reactErrorHandler() } : {};

createRoot(document.getElementById('root')!, rootOptions).render(
  <StrictMode>
    <Sentry.ErrorBoundary fallback={<Crashed />}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <SessionProvider>
            {/* Blueprint's table registers its keyboard shortcuts here. */}
            <HotkeysProvider>
              <App />
            </HotkeysProvider>
          </SessionProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </Sentry.ErrorBoundary>
  </StrictMode>,
);
